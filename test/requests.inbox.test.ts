import { GatewayClient } from '../client/gateway-client';
import { RequestsClient, type InboxItem } from '../client/requests-client';
import { seedGatewayOrgs, journalPost, OWNER, ORG } from './gateway.fixtures';
import { TEN_K, startAnalysisEnv, type AnalysisEnv } from './support/analysis-env';

/**
 * One inbox on the dev server with the real worker: an analysis review, a gateway approval
 * and an agent's request, all routed to the org owner, come back from one query; deciding the
 * gateway item through the requests client applies the write and closes the item.
 */
let env: AnalysisEnv;
let requests: RequestsClient;
let gateway: GatewayClient;

beforeAll(async () => {
  env = await startAnalysisEnv();
  await seedGatewayOrgs(env.database.db);
  requests = new RequestsClient(env.worker.client, env.database.db, {
    taskQueue: env.worker.taskQueue,
  });
  gateway = new GatewayClient(env.worker.client, env.database.db, env.worker.taskQueue);
}, 120_000);

afterAll(async () => {
  await env?.close();
});

async function inboxUntil(pred: (items: InboxItem[]) => boolean): Promise<InboxItem[]> {
  for (let i = 0; i < 300; i++) {
    const items = await requests.listInbox({ orgId: ORG, userId: OWNER });
    if (pred(items)) return items;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the inbox never reached the expected state');
}

it('lists an analysis review, a gateway approval and an agent request for the same person, and decides one', async () => {
  const write = journalPost({ amount: '1000' });
  await gateway.submit(write);
  const view = await gateway.settle(ORG, write.idempotencyKey);
  expect(view.status).toBe('awaiting_approval');
  const reviewId = `inbox-review-${Date.now()}`;
  await env.analysis.start({
    requestId: reviewId,
    orgId: ORG,
    docIds: [TEN_K],
    queryType: 'risk_flag',
    queryText: 'Going concern doubt, restatement, or liquidity concerns?',
    constraints: { topics: ['going_concern', 'restatement'] },
  });
  const agentRequest = await requests.createRequest({
    orgId: ORG,
    type: 'master_data',
    title: 'Vendor tax id for Paper & Co',
    question: 'What is the VAT id of Paper & Co (bill B-9)?',
    answerSchema: { fields: [{ name: 'vat_id', label: 'VAT id', kind: 'text' }] },
    createdBy: { runId: 'agent-run:acme:bill_processor:evt_1:1', agentType: 'bill_processor' },
    callback: { eventType: null },
  });

  const items = await inboxUntil((xs) => new Set(xs.map((x) => x.source)).size === 3);
  const bySource = Object.fromEntries(items.map((x) => [x.source, x]));
  expect(bySource.request).toMatchObject({
    requestId: agentRequest.requestId,
    type: 'master_data',
    route: 'owner',
    createdBy: { agentType: 'bill_processor' },
  });
  expect(bySource.gateway_approval).toMatchObject({
    type: 'approval',
    linkKey: write.idempotencyKey,
    route: 'owner',
  });
  expect(bySource.analysis_review).toMatchObject({ type: 'review', linkKey: reviewId });

  // Deciding the gateway item goes through the gateway's own approval Update.
  const gatewayItem = bySource.gateway_approval!;
  const ack = await requests.answerRequest({
    requestId: gatewayItem.requestId,
    orgId: ORG,
    answeredBy: OWNER,
    answer: { decision: 'approve' },
  });
  expect(ack.status).toBe('answered');
  const result = await gateway.result(ORG, write.idempotencyKey);
  expect(result.outcome).toBe('applied');
  expect(result.votes.map((v) => v.userId)).toEqual([OWNER]);
  const after = await inboxUntil((xs) => !xs.some((x) => x.source === 'gateway_approval'));
  expect(after.map((x) => x.source).sort()).toEqual(['analysis_review', 'request']);
  const closed = await requests.getRequest(ORG, gatewayItem.requestId);
  expect([closed?.status, closed?.answeredBy]).toEqual(['completed', OWNER]);
  // A rejection without its note is refused by the analysis review's own validation.
  await expect(
    requests.answerRequest({
      requestId: bySource.analysis_review!.requestId,
      orgId: ORG,
      answeredBy: OWNER,
      answer: { decision: 'reject' },
    }),
  ).rejects.toThrow(/a rejection needs a note/);
});
