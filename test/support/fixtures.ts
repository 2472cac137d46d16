import { join } from 'node:path';
import type { Db } from '../../db/connection';
import { ensureOrganization } from '../../db/repositories/organizations';
import { issueApiKey } from '../../db/repositories/credentials';
import { PROJECT_ROOT } from '../../scripts/lib/temporal-binaries';
import { ensureUser } from '../../activities/gateway/org-bootstrap';

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

/**
 * The environment of an operator running the CLI in its own process (issue 25 item 8): the key
 * of an admin of the operating org `orgId` (created if missing), which is CS_OPERATOR_ORG.
 */
export async function operatorEnv(
  db: Db,
  orgId = 'ops',
): Promise<{ CS_API_KEY: string; CS_OPERATOR_ORG: string }> {
  await ensureOrganization(db, { id: orgId, name: 'Operations' });
  const userId = `${orgId}-operator`;
  await ensureUser(db, {
    id: userId,
    email: `${userId}@operations.example`,
    displayName: 'Operator',
    orgId,
    roles: ['admin'],
  });
  const { key } = await issueApiKey(db, { kind: 'user', userId }, { issuedBy: 'test', orgId });
  return { CS_API_KEY: key, CS_OPERATOR_ORG: orgId };
}
