import { join } from 'node:path';
import type { Db } from '../../db/connection';
import { ensureOrganization, ensureUser } from '../../db/repositories/organizations';
import { PROJECT_ROOT } from '../../scripts/lib/temporal-binaries';

export const SAMPLES = join(PROJECT_ROOT, 'samples', 'documents');
export const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures');

export const ORG = 'acme';
export const OTHER_ORG = 'globex';
export const REVIEWER = { userId: 'rita', orgId: ORG };
export const ANALYST = { userId: 'arnold', orgId: ORG };
export const OUTSIDER = { userId: 'gina', orgId: OTHER_ORG };

/** Two orgs with a reviewer each, and an analyst without review rights. */
export async function seedOrgs(db: Db): Promise<void> {
  await ensureOrganization(db, { id: ORG, name: 'Acme Corp' });
  await ensureOrganization(db, { id: OTHER_ORG, name: 'Globex' });
  await ensureUser(db, {
    id: 'rita',
    email: 'rita@acme.example',
    displayName: 'Rita Reviewer',
    orgId: ORG,
    roles: ['reviewer'],
  });
  await ensureUser(db, {
    id: 'arnold',
    email: 'arnold@acme.example',
    displayName: 'Arnold Analyst',
    orgId: ORG,
    roles: ['analyst'],
  });
  await ensureUser(db, {
    id: 'gina',
    email: 'gina@globex.example',
    displayName: 'Gina Globex',
    orgId: OTHER_ORG,
    roles: ['reviewer'],
  });
}
