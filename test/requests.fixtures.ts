import type { Db } from '../db/connection';
import { ensureOrganization } from '../db/repositories/organizations';
import type { CreateRequestInput } from '../workflows/requests/contract';
import { ensureUser } from '../activities/gateway/org-bootstrap';

/** Three orgs for routing: one with an owner, one with only an admin, one with neither. */
export const RORG = 'req-acme';
export const RORG_ADMIN_ONLY = 'req-initech';
export const RORG_EMPTY = 'req-hooli';
export const OWNER = 'req-olga';
export const ADMIN = 'req-adam';
export const CLERK = 'req-cleo';
export const VIEWER = 'req-vic';
export const PLACEHOLDER_USER = 'req-pete';
export const OTHER_ADMIN = 'req-ida';

export async function seedRequestOrgs(db: Db): Promise<void> {
  for (const [id, name] of [
    [RORG, 'Acme Books'],
    [RORG_ADMIN_ONLY, 'Initech'],
    [RORG_EMPTY, 'Hooli'],
  ] as const)
    await ensureOrganization(db, { id, name });
  const people: [string, string, string, ('owner' | 'admin' | 'analyst' | 'viewer')[]][] = [
    [OWNER, 'olga@acme-books.io', RORG, ['owner']],
    [ADMIN, 'adam@acme-books.io', RORG, ['admin']],
    [CLERK, 'cleo@acme-books.io', RORG, ['analyst']],
    [VIEWER, 'vic@acme-books.io', RORG, ['viewer']],
    [PLACEHOLDER_USER, 'pete@vendor.example', RORG, ['analyst']],
    [OTHER_ADMIN, 'ida@initech.io', RORG_ADMIN_ONLY, ['admin']],
  ];
  for (const [id, email, orgId, roles] of people)
    await ensureUser(db, { id, email, displayName: id, orgId, roles });
}

/** A classification request: two bill lines, each needing a ledger code. */
export function classification(over: Partial<CreateRequestInput> = {}): CreateRequestInput {
  return {
    orgId: RORG,
    type: 'classification',
    title: 'Ledger codes for bill B-17',
    question: 'Which ledger code does each line of bill B-17 (total 1,250.00 EUR) go to?',
    answerSchema: {
      fields: [
        {
          name: 'codes',
          label: 'Ledger codes',
          kind: 'code_per_item',
          items: [
            { id: 'line-1', label: 'Printer paper' },
            { id: 'line-2', label: 'Toner' },
          ],
          codes: ['6100', '6200', '6300'],
        },
      ],
    },
    evidence: { billId: 'B-17', total: '1250.00', currency: 'EUR' },
    callback: { eventType: null },
    ...over,
  };
}

/** An approval: one yes/no field. */
export function approval(over: Partial<CreateRequestInput> = {}): CreateRequestInput {
  return {
    orgId: RORG,
    type: 'approval',
    title: 'Pay vendor V-3 1,250.00 EUR',
    question: 'May we pay vendor V-3 the 1,250.00 EUR of bill B-17?',
    answerSchema: { fields: [{ name: 'approved', label: 'Approved', kind: 'boolean' }] },
    evidence: { vendorId: 'V-3', amount: '1250.00', currency: 'EUR' },
    callback: { eventType: null },
    ...over,
  };
}
