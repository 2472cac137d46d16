import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { analysisWorkflowId, type AnalysisRequestInput } from '../workflows/analysis.contract';
import { gatewayWorkflowId } from '../workflows/gateway.contract';
import { GatewayClient } from '../client/gateway-client';
import { accountId } from '../db/ledger/default-chart';
import { ORG, REVIEWER } from './support/fixtures';
import { PILLAR3, TEN_K, startAnalysisEnv } from './support/analysis-env';
import { createTestDatabase } from './support/database';
import { seedOrgs } from './support/fixtures';
import { agentsDirWith, startRuntimeWorker } from './agent-runs.fixtures';
import { slotsWorkflowId } from '../workflows/agent-runs/contract';
import { ensureUser, seedDefaultChart } from '../activities/gateway/org-bootstrap';

/**
 * Determinism guard: histories recorded from real runs (committed under test/histories)
 * must replay against the current workflow code. Re-record after an intended, patched
 * change with `CS_RECORD_HISTORIES=1 npm test -- test/replay.test.ts`.
 */
const DIR = join(__dirname, 'histories');

/** The CLI's JSON is the format operators export from production for replay, too. */
function exportHistory(workflowId: string, file: string): void {
  const json = execFileSync(process.env.TEMPORAL_CLI ?? 'temporal', [
    'workflow',
    'show',
    '--workflow-id',
    workflowId,
    '--output',
    'json',
    '--address',
    process.env.TEMPORAL_ADDRESS ?? '',
    '--namespace',
    process.env.TEMPORAL_NAMESPACE ?? '',
  ]);
  writeFileSync(join(DIR, file), json);
}

async function record(): Promise<void> {
  const env = await startAnalysisEnv();
  try {
    const cases: { name: string; req: AnalysisRequestInput; review?: boolean }[] = [
      {
        name: 'extraction-delivered',
        req: {
          requestId: 'replay-extraction',
          orgId: ORG,
          docIds: [TEN_K],
          queryType: 'extract_metric',
          queryText: 'What is the FY2024 net sales (in USD millions)?',
        },
      },
      {
        name: 'review-approved',
        req: {
          requestId: 'replay-review',
          orgId: ORG,
          docIds: [TEN_K],
          queryType: 'extract_metric',
          queryText: 'What is the FY2024 capital expenditure amount (in USD millions)?',
        },
        review: true,
      },
      {
        name: 'compliance-review',
        req: {
          requestId: 'replay-compliance',
          orgId: ORG,
          docIds: [PILLAR3],
          queryType: 'compliance_assessment',
          queryText: 'Basel III?',
          framework: 'basel_iii',
        },
        review: true,
      },
    ];
    mkdirSync(DIR, { recursive: true });
    for (const c of cases) {
      await env.analysis.start(c.req);
      await env.analysis.settle(ORG, c.req.requestId);
      if (c.review)
        await env.analysis.review(ORG, c.req.requestId, {
          decision: 'approve',
          reviewer: REVIEWER,
        });
      await env.analysis.result(ORG, c.req.requestId);
      exportHistory(analysisWorkflowId(ORG, c.req.requestId), `analysis-${c.name}.json`);
    }

    // Gateway: a first posting signed by one approver (moderate), then a repeat (low).
    await seedDefaultChart(env.database.db, ORG);
    await ensureUser(env.database.db, {
      id: 'ann',
      email: 'ann@acme.example',
      displayName: 'Ann',
      orgId: ORG,
      roles: ['approver'],
    });
    const gateway = new GatewayClient(env.worker.client, env.database.db, env.worker.taskQueue);
    const post = (key: string) => ({
      orgId: ORG,
      idempotencyKey: key,
      submitter: { kind: 'user' as const, userId: 'arnold' },
      kind: 'journal.post',
      payload: {
        entryDate: '2026-11-30',
        memo: 'supplies',
        lines: [
          { accountId: accountId(ORG, '6200'), currency: 'USD', debit: '1250' },
          { accountId: accountId(ORG, '1010'), currency: 'USD', credit: '1250' },
        ],
      },
    });
    await gateway.submit(post('replay-moderate'));
    await gateway.settle(ORG, 'replay-moderate');
    await gateway.approve(ORG, 'replay-moderate', 'ann');
    await gateway.result(ORG, 'replay-moderate');
    exportHistory(gatewayWorkflowId(ORG, 'replay-moderate'), 'gateway-moderate-approved.json');
    await gateway.submit(post('replay-low'));
    await gateway.result(ORG, 'replay-low');
    exportHistory(gatewayWorkflowId(ORG, 'replay-low'), 'gateway-low-applied.json');
  } finally {
    await env.close();
  }
}

/** The agent runtime's workflows: an event dispatched and completed, an ignored one, the
 * agent run it started, and the org's and the agent's slot semaphores (still open: replayed
 * as far as they got). */
async function recordRuntime(): Promise<void> {
  const database = await createTestDatabase();
  await seedOrgs(database.db);
  const agents = agentsDirWith({
    document_analyst: { base: 'document_analyst', config: { max_concurrent_runs: 2 } },
  });
  const rt = await startRuntimeWorker(database, {
    agentRuntime: { agentsDir: agents.dir },
    events: { retryDelaysMs: [] },
    activityOverrides: {
      agentAnalyzeDocument: (async () => ({
        requestId: 'replay',
        outcome: 'delivered',
        answer: '391035',
      })) as never,
    },
  });
  try {
    mkdirSync(DIR, { recursive: true });
    const done = await rt.events.acceptEvent({
      orgId: ORG,
      type: 'document.received',
      source: 'connector',
      payload: { documentId: TEN_K },
    });
    const completed = await rt.events.result(done.workflowId);
    const ignored = await rt.events.acceptEvent({
      orgId: ORG,
      type: 'nobody.listens',
      source: 'rule',
      payload: { n: 1 },
    });
    await rt.events.result(ignored.workflowId);
    exportHistory(done.workflowId, 'events-completed.json');
    exportHistory(ignored.workflowId, 'events-ignored.json');
    exportHistory(slotsWorkflowId(rt.taskQueue, `org:${ORG}`), 'slots-org.json');
    // The agent run: each slot grant is a signal naming a request id derived from the run's
    // workflow id (it ends a condition and cancels its timer); the deadline timer is
    // cancelled when the work wins the race.
    const run = completed.runs.find((r) => r.agentType === 'document_analyst');
    if (!run) throw new Error('the document_analyst run is missing from the event result');
    exportHistory(run.runId, 'agent-run-completed.json');
    exportHistory(
      slotsWorkflowId(rt.taskQueue, `agent:${ORG}:document_analyst`),
      'slots-agent.json',
    );
  } finally {
    await rt.stop();
    await database.close();
    agents.cleanup();
  }
}

describe('replay of recorded workflow histories', () => {
  beforeAll(async () => {
    // 1: every history; runtime: only the agent runtime's (events, agent runs, slots).
    if (process.env.CS_RECORD_HISTORIES === '1') await record();
    if (['1', 'runtime'].includes(process.env.CS_RECORD_HISTORIES ?? '')) await recordRuntime();
  });

  it('replays every recorded history (analysis delivered/reviewed/compliance, gateway low/moderate, events, agent run, slots) without nondeterminism', async () => {
    const files = readdirSync(DIR)
      .filter((f) => f.endsWith('.json'))
      .sort();
    expect(files).toEqual([
      'agent-run-completed.json',
      'analysis-compliance-review.json',
      'analysis-extraction-delivered.json',
      'analysis-review-approved.json',
      'events-completed.json',
      'events-ignored.json',
      'gateway-low-applied.json',
      'gateway-moderate-approved.json',
      'slots-agent.json',
      'slots-org.json',
    ]);
    // Replayed by the operator's replay command in its own process (protobufjs' type
    // registry does not survive jest's module sandbox), against the same bundle CI tests.
    const out = spawnSync(
      process.execPath,
      [
        require.resolve('tsx/cli'),
        join(__dirname, '..', 'scripts', 'replay.ts'),
        '--bundle',
        process.env.CS_TEST_WORKFLOW_BUNDLE ?? '',
        ...files.map((f) => join(DIR, f)),
      ],
      { encoding: 'utf8' },
    );
    const lines = out.stdout
      .split('\n')
      .filter((l) => l.startsWith('{"file"'))
      .map((l) => JSON.parse(l) as { file: string; ok: boolean; error?: string });
    expect(lines).toEqual(files.map((file) => ({ file, ok: true })));
    expect(out.status).toBe(0);
  });

  it('detects a nondeterministic change: a history whose activity order differs fails replay', () => {
    const original = JSON.parse(
      readFileSync(join(DIR, 'analysis-extraction-delivered.json'), 'utf8'),
    ) as {
      events: { activityTaskScheduledEventAttributes?: { activityType?: { name?: string } } }[];
    };
    const scheduled = original.events.filter((e) => e.activityTaskScheduledEventAttributes);
    // Pretend the recorded run called a different activity first: the code must refuse it.
    const first = scheduled[0]?.activityTaskScheduledEventAttributes?.activityType;
    expect(first?.name).toBe('receiveRequest');
    if (first) first.name = 'retrieve_context';
    const tampered = join(mkdtempSync(join(tmpdir(), 'cs-replay-')), 'tampered.json');
    writeFileSync(tampered, JSON.stringify(original));
    const out = spawnSync(
      process.execPath,
      [
        require.resolve('tsx/cli'),
        join(__dirname, '..', 'scripts', 'replay.ts'),
        '--bundle',
        process.env.CS_TEST_WORKFLOW_BUNDLE ?? '',
        tampered,
      ],
      { encoding: 'utf8' },
    );
    expect(
      JSON.parse(out.stdout.split('\n').find((l) => l.startsWith('{"file"')) ?? 'null'),
    ).toMatchObject({ file: 'tampered.json', ok: false, error: 'DeterminismViolationError' });
    expect(out.status).toBe(1);
  });

  /** Replays one history file with the operator CLI (`countersign replay --file`). */
  const cliReplay = (file: string) => {
    const out = spawnSync(
      process.execPath,
      [
        require.resolve('tsx/cli'),
        join(__dirname, '..', 'client', 'cli.ts'),
        'replay',
        '--json',
        '--bundle',
        process.env.CS_TEST_WORKFLOW_BUNDLE ?? '',
        '--file',
        file,
      ],
      { encoding: 'utf8' },
    );
    const json = out.stdout.slice(out.stdout.indexOf('{'));
    return {
      status: out.status,
      report: JSON.parse(json) as {
        results: { ok: boolean; workflowId: string; mismatch?: { eventId: number } }[];
      },
    };
  };

  it("replays an agent run under its recorded workflow id, which its slot grants name (the CLI as the script); under another id the grant's timer cancellation has no command", () => {
    const file = join(DIR, 'agent-run-completed.json');
    const history = JSON.parse(readFileSync(file, 'utf8')) as {
      events: { workflowExecutionStartedEventAttributes?: { workflowId?: string } }[];
    };
    const started = history.events[0]?.workflowExecutionStartedEventAttributes;
    expect(started?.workflowId).toMatch(/^agent-run:/);
    const ok = cliReplay(file);
    expect(ok.report.results).toEqual([
      expect.objectContaining({ ok: true, workflowId: started?.workflowId }),
    ]);
    expect(ok.status).toBe(0);

    // The cause of the reported failure: the replayer ran the workflow under a made-up id,
    // so the grant signal (event 9, naming the real id) never satisfied the slot condition
    // and the recorded TimerCanceled (event 13) had no command.
    if (started) delete started.workflowId;
    const anonymous = join(mkdtempSync(join(tmpdir(), 'cs-replay-')), 'agent-run-no-id.json');
    writeFileSync(anonymous, JSON.stringify(history));
    const bad = cliReplay(anonymous);
    expect(bad.report.results).toEqual([
      expect.objectContaining({
        ok: false,
        error: 'DeterminismViolationError',
        mismatch: expect.objectContaining({ eventId: 13, eventType: 'TIMER_CANCELED' }),
      }),
    ]);
    expect(bad.status).toBe(1);
  });
});
