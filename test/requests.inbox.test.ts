import { GatewayClient } from '../client/gateway-client';
import { buildProgram } from '../client/program';
import { runStatus } from '../client/commands/runs';
import { gatewayWorkflowId } from '../workflows/gateway.contract';
import type { CliContext } from '../client/commands/context';
import { issueApiKey } from '../db/repositories/credentials';
import { testConfig } from './support/worker';
import { RequestsClient, type InboxItem } from '../client/requests-client';
import {
  seedGatewayOrgs,
  journalPost,
  APPROVER_1,
  APPROVER_2,
  CLERK,
  OWNER,
  ORG,
} from './gateway.fixtures';
import { TEN_K, startAnalysisEnv, type AnalysisEnv } from './support/analysis-env';

/**
 * One inbox on the dev server with the real worker: an analysis review, a gateway approval
 * and an agent's request, all routed to the org owner, come back from one query; deciding the
 * gateway item through the requests client applies the write and closes the item. The reviewer's
 * CLI (`inbox`, `decide`, authenticated by the person's API key) lists the same items and its
 * approval applies a waiting write.
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

async function inboxUntil(
  pred: (items: InboxItem[]) => boolean,
  userId = OWNER,
): Promise<InboxItem[]> {
  for (let i = 0; i < 300; i++) {
    const items = await requests.listInbox({ orgId: ORG, userId });
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
    answer: { decision: 'approve', ...(await gateway.currentPlan(ORG, write.idempotencyKey)) },
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

it("keeps a write that needs two approvals in every approver's inbox until each has voted", async () => {
  const write = journalPost({ amount: '3000000' });
  await gateway.submit(write);
  const view = await gateway.settle(ORG, write.idempotencyKey);
  expect([view.status, view.risk?.lane, view.risk?.requiredApprovals]).toEqual([
    'awaiting_approval',
    'high',
    2,
  ]);
  const mine = (items: InboxItem[]) =>
    items.find((x) => x.source === 'gateway_approval' && x.linkKey === write.idempotencyKey);
  // Routed to one assignee (the owner), yet listed for both approvers; not for a clerk.
  const first = mine(await inboxUntil((xs) => !!mine(xs), APPROVER_1))!;
  expect(mine(await requests.listInbox({ orgId: ORG, userId: APPROVER_2 }))).toBeDefined();
  expect(mine(await requests.listInbox({ orgId: ORG, userId: CLERK }))).toBeUndefined();
  expect(first.route).toBe('owner');

  await requests.answerRequest({
    requestId: first.requestId,
    orgId: ORG,
    answeredBy: APPROVER_1,
    answer: { decision: 'approve', ...(await gateway.currentPlan(ORG, write.idempotencyKey)) },
  });
  // Her vote is in: gone from her list, still in the second approver's.
  await inboxUntil((xs) => !mine(xs), APPROVER_1);
  // An operator's `status` shows what the write waits for, live (its current details).
  const live = await runStatus(env.worker.client, gatewayWorkflowId(ORG, write.idempotencyKey));
  expect(live).toMatchObject({ status: 'RUNNING', searchAttributes: { CsRiskLane: 'high' } });
  expect(live.currentDetails).toMatch(/^\*\*awaiting_approval\*\* — journal\.post: high risk/);
  const second = mine(await requests.listInbox({ orgId: ORG, userId: APPROVER_2 }))!;
  expect(second.requestId).toBe(first.requestId);
  await requests.answerRequest({
    requestId: second.requestId,
    orgId: ORG,
    answeredBy: APPROVER_2,
    answer: { decision: 'approve', ...(await gateway.currentPlan(ORG, write.idempotencyKey)) },
  });
  const result = await gateway.result(ORG, write.idempotencyKey);
  expect(result.outcome).toBe('applied');
  expect(result.votes.map((v) => v.userId).sort()).toEqual([APPROVER_2, APPROVER_1].sort());
  await inboxUntil((xs) => !mine(xs), APPROVER_2);
  await inboxUntil((xs) => !mine(xs), OWNER);
});

/** Runs one CLI command in-process as the holder of `apiKey`; returns its parsed JSON output. */
async function cli(apiKey: string, ...args: string[]): Promise<{ out: unknown; exitCode: number }> {
  return cliRun(apiKey, {}, ...args);
}

/** Runs one CLI command in-process as the holder of `apiKey`; text mode returns what it wrote. */
async function cliRun(
  apiKey: string,
  opts: { text?: boolean },
  ...args: string[]
): Promise<{ out: unknown; exitCode: number }> {
  let stdout = '';
  const before = process.exitCode;
  process.exitCode = 0;
  const context = (json: boolean): CliContext => ({
    config: () =>
      testConfig(env.database, { CS_API_KEY: apiKey, TEMPORAL_TASK_QUEUE: env.worker.taskQueue }),
    db: () => Promise.resolve(env.database.db),
    temporal: () => Promise.resolve(env.worker.client),
    namespace: () => env.worker.client.options.namespace,
    out: {
      json,
      print: (v) => (stdout += JSON.stringify(v)),
      write: (t) => (stdout += t),
      note: () => undefined,
    },
    close: () => Promise.resolve(),
  });
  await buildProgram(context).parseAsync([
    'node',
    'countersign',
    ...(opts.text ? [] : ['--json']),
    ...args,
  ]);
  const exitCode = Number(process.exitCode ?? 0);
  process.exitCode = before;
  if (opts.text) return { out: stdout, exitCode };
  return { out: stdout ? (JSON.parse(stdout) as unknown) : null, exitCode };
}

it('lists the inbox and approves a waiting write through the reviewer CLI', async () => {
  const { key } = await issueApiKey(
    env.database.db,
    { kind: 'user', userId: OWNER },
    { issuedBy: 'test', orgId: ORG, label: 'cli reviewer' },
  );
  const write = journalPost({ amount: '600000' }); // the moderate lane: one approval
  await gateway.submit(write);
  expect((await gateway.settle(ORG, write.idempotencyKey)).status).toBe('awaiting_approval');

  // The write as an approver reads it in a terminal: amounts formatted, accounts named.
  const shown = await cliRun(
    key,
    { text: true },
    'gateway',
    'show',
    '--org',
    ORG,
    '--key',
    write.idempotencyKey,
  );
  expect(shown.exitCode).toBe(0);
  expect(shown.out).toMatch(/^journal\.post — Moderate risk — 1 approval\n/);
  expect(shown.out).toContain(
    'Amount $6,000.00 is at or above the approval threshold of $5,000.00',
  );
  expect(shown.out).toMatch(/\d{4} [A-Z][^\n]*USD\s+6,000\.00\n/);
  expect(shown.out).not.toContain('600000');

  let listed: InboxItem[] = [];
  for (let i = 0; i < 300 && !listed.some((x) => x.linkKey === write.idempotencyKey); i++) {
    const r = await cli(key, 'inbox', '--org', ORG);
    expect(r.exitCode).toBe(0);
    listed = r.out as InboxItem[];
    if (!listed.some((x) => x.linkKey === write.idempotencyKey))
      await new Promise((res) => setTimeout(res, 50));
  }
  const item = listed.find((x) => x.linkKey === write.idempotencyKey);
  expect(item).toMatchObject({ source: 'gateway_approval', type: 'approval', route: 'owner' });
  // The operator's view of the org lists it too, whoever it is assigned to.
  const orgList = (await cli(key, 'requests', 'list', '--org', ORG)).out as { id: string }[];
  expect(orgList.map((r) => r.id)).toContain(item!.requestId);

  // A decision the form does not allow is refused by the CLI, and the write still waits.
  await expect(
    cli(key, 'decide', item!.requestId, '--org', ORG, '--decision', 'maybe'),
  ).rejects.toMatchObject({ name: 'InvalidRequestError', message: /decision: Invalid option/ });
  expect((await gateway.settle(ORG, write.idempotencyKey)).status).toBe('awaiting_approval');

  // An approval names the plan the reviewer saw (`gateway show`): without it, refused.
  await expect(
    cli(key, 'decide', item!.requestId, '--org', ORG, '--decision', 'approve'),
  ).rejects.toMatchObject({ type: 'InvalidAnswer', message: /names its revision and planHash/ });
  const plan = (await cli(key, 'gateway', 'show', '--org', ORG, '--key', write.idempotencyKey))
    .out as { revision: number; planHash: string };
  const decided = await cli(
    key,
    'decide',
    item!.requestId,
    '--org',
    ORG,
    '--decision',
    'approve',
    '--revision',
    String(plan.revision),
    '--plan-hash',
    plan.planHash,
  );
  expect(decided.exitCode).toBe(0);
  expect(decided.out).toMatchObject({ status: 'answered', requestId: item!.requestId });
  // The gateway workflow proceeds: the write is applied on the owner's vote.
  const result = await gateway.result(ORG, write.idempotencyKey);
  expect(result.outcome).toBe('applied');
  expect(result.votes.map((v) => v.userId)).toEqual([OWNER]);
  const after = (await cli(key, 'inbox', '--org', ORG)).out as InboxItem[];
  expect(after.some((x) => x.requestId === item!.requestId)).toBe(false);
  const open = (await cli(key, 'requests', 'list', '--org', ORG)).out as { id: string }[];
  expect(open.map((r) => r.id)).not.toContain(item!.requestId);
  const all = (await cli(key, 'requests', 'list', '--org', ORG, '--all')).out as {
    id: string;
    status: string;
  }[];
  expect(all.find((r) => r.id === item!.requestId)).toMatchObject({ status: 'completed' });
});
