import type { Db } from '../db/connection';
import { ORG, seedOrgs } from './support/fixtures';
import { upsertAgentIdentity } from '../db/repositories/credentials';
import { setOrgAgentSettings } from '../db/repositories/agent-runs';
import { ensureUser, seedDefaultChart } from '../activities/gateway/org-bootstrap';

export const BANK_AGENT = 'bank_transaction_processor';

/**
 * The test org for the bank transaction processor: the default chart, an approver (paula) for
 * the batches a first posting sends to an approval lane, arnold operating the agent, and the
 * agent registered for journal.post_batch.
 */
export async function seedBankAgentOrg(db: Db): Promise<void> {
  await seedOrgs(db);
  await seedDefaultChart(db, ORG);
  await ensureUser(db, {
    id: 'paula',
    email: 'paula@acme.example',
    displayName: 'Paula Approver',
    orgId: ORG,
    roles: ['approver'],
  });
  await setOrgAgentSettings(db, { orgId: ORG, operatorUserId: 'arnold' });
  await upsertAgentIdentity(db, {
    orgId: ORG,
    by: 'test-admin',
    agentId: BANK_AGENT,
    operatorUserId: 'arnold',
    allowedWorkflows: ['journal.post_batch'],
  });
}
