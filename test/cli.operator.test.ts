import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import type { Database } from '../db/connection';
import { buildProgram } from '../client/program';
import type { CliContext } from '../client/commands/context';
import { createTestDatabase } from './support/database';
import { issueApiKey } from '../db/repositories/credentials';
import { OperatorKeyError } from '../client/errors';
import { ORG, seedOrgs } from './support/fixtures';
import { testConfig } from './support/worker';
import { agentsDirWith, startRuntimeWorker, type RuntimeWorker } from './agent-runs.fixtures';
import { ensureUser } from '../activities/gateway/org-bootstrap';

/**
 * The operator CLI against the dev server and PostgreSQL: a failed event is listed and its
 * retry completes it; replay passes recorded runs on unchanged code and names the event a
 * deliberately non-deterministic change no longer reproduces; reset starts a new run.
 */
let database: Database;
let rt: RuntimeWorker;
let agents: { dir: string; cleanup(): void };
const calls = new Map<string, number>();
/** Operator commands act as an owner or admin's key (issue 25 item 8); tests swap it. */
let operatorEnv: Record<string, string> = {};
let adminKey = '';

/** The analysis an agent runs, at the activity seam: documents named failN-… fail N calls. */
async function fakeAnalyze(c: { input: { docIds: string[] } }) {
  const doc = c.input.docIds[0] ?? '';
  const n = (calls.get(doc) ?? 0) + 1;
  calls.set(doc, n);
  const failFirst = /^fail(\d+)-/.exec(doc);
  if (failFirst && n <= Number(failFirst[1]))
    throw ApplicationFailure.nonRetryable(
      `analysis of ${doc} unavailable (call ${n})`,
      'TestFault',
    );
  return { requestId: `fake-${n}`, outcome: 'delivered', answer: `answer for ${doc}` };
}

/** Runs one CLI command in-process over the test's database and client; returns its stdout. */
async function cli(...args: string[]): Promise<{ out: unknown; exitCode: number }> {
  let stdout = '';
  const before = process.exitCode;
  process.exitCode = 0;
  const context = (json: boolean): CliContext => ({
    config: () => testConfig(database, { TEMPORAL_TASK_QUEUE: rt.taskQueue, ...operatorEnv }),
    db: () => Promise.resolve(database.db),
    temporal: () => Promise.resolve(rt.client),
    namespace: () => rt.client.options.namespace,
    out: {
      json,
      print: (v) => (stdout += JSON.stringify(v)),
      write: (t) => (stdout += t),
      note: () => undefined,
    },
    close: () => Promise.resolve(),
  });
  await buildProgram(context).parseAsync(['node', 'countersign', '--json', ...args]);
  const exitCode = Number(process.exitCode ?? 0);
  process.exitCode = before;
  return { out: JSON.parse(stdout) as unknown, exitCode };
}

/** The CLI as operators run it, in its own process (the replay worker needs one). */
function cliProcess(...args: string[]): Promise<{ status: number | null; out: ReplayReport }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [require.resolve('tsx/cli'), join(__dirname, '..', 'client', 'cli.ts'), '--json', ...args],
      // An operator's key for the cross-org replay, checked against the test's database.
      {
        env: { ...process.env, DATABASE_URL: database.url, ...operatorEnv },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('close', (status) =>
      resolve({ status, out: JSON.parse(stdout || 'null') as ReplayReport }),
    );
  });
}
interface ReplayReport {
  replayed: number;
  failed: number;
  results: {
    workflowId: string;
    ok: boolean;
    error?: string;
    message?: string;
    mismatch?: { eventId: number; eventType: string; detail: string | null };
  }[];
}

const failingEvent = {
  orgId: ORG,
  type: 'document.received',
  source: 'connector' as const,
  payload: { documentId: 'fail1-cli-retry' },
};

beforeAll(async () => {
  database = await createTestDatabase();
  await seedOrgs(database.db);
  await ensureUser(database.db, {
    id: 'olga',
    email: 'olga@acme.example',
    displayName: 'Olga Operator',
    orgId: ORG,
    roles: ['admin'],
  });
  adminKey = (
    await issueApiKey(
      database.db,
      { kind: 'user', userId: 'olga' },
      { issuedBy: 'test', orgId: ORG },
    )
  ).key;
  operatorEnv = { CS_API_KEY: adminKey, CS_OPERATOR_ORG: ORG };
  agents = agentsDirWith({ document_analyst: { base: 'document_analyst', config: {} } });
  rt = await startRuntimeWorker(database, {
    agentRuntime: { agentsDir: agents.dir },
    // No retry delays: the first failure fails the event, as after the last scheduled retry.
    events: { retryDelaysMs: [] },
    activityOverrides: { agentAnalyzeDocument: fakeAnalyze as never },
  });
});
afterAll(async () => {
  await rt?.stop();
  await database?.close();
  agents?.cleanup();
});

describe('countersign ingest', () => {
  it('ingests every document of a folder (one result each); --id with several files is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-ingest-'));
    try {
      writeFileSync(join(dir, 'a.txt'), 'Net sales were $1,234 million in fiscal 2024.\n');
      writeFileSync(join(dir, 'b.txt'), 'Operating income was $321 million in fiscal 2024.\n');
      writeFileSync(join(dir, 'notes.bin'), 'not a document');
      const { out } = await cli('ingest', '--org', ORG, '--file', dir);
      expect(out).toEqual([
        expect.objectContaining({ status: 'ready', created: true }),
        expect.objectContaining({ status: 'ready', created: true }),
      ]);
      await expect(
        cli('ingest', '--org', ORG, '--file', join(dir, 'a.txt'), join(dir, 'b.txt'), '--id', 'x'),
      ).rejects.toMatchObject({ message: expect.stringContaining('--id names one document') });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('operator commands need an operator key (issue 25 item 8)', () => {
  const as = async (env: Record<string, string>, ...args: string[]) => {
    const before = operatorEnv;
    operatorEnv = env;
    try {
      return await cli(...args);
    } finally {
      operatorEnv = before;
    }
  };
  const refused = (message: RegExp) =>
    expect.objectContaining({ name: 'OperatorKeyError', message: expect.stringMatching(message) });

  it('refuses without a key, with a non-admin’s key, another org’s key, and across orgs without CS_OPERATOR_ORG', async () => {
    const key = async (userId: string, orgId: string) =>
      (await issueApiKey(database.db, { kind: 'user', userId }, { issuedBy: 'test', orgId })).key;
    await expect(as({}, 'events', 'failed', '--org', ORG)).rejects.toEqual(refused(/CS_API_KEY/));
    await expect(as({}, 'events', 'failed', '--org', ORG)).rejects.toBeInstanceOf(OperatorKeyError);
    // rita reviews in acme but is no admin there.
    await expect(
      as({ CS_API_KEY: await key('rita', ORG) }, 'events', 'failed', '--org', ORG),
    ).rejects.toEqual(refused(/not an owner or admin/));
    // gina's key is globex's: it does not operate acme.
    await expect(
      as({ CS_API_KEY: await key('gina', 'globex') }, 'audit', 'head', '--org', ORG),
    ).rejects.toEqual(refused(/issued for org globex/));
    // An admin of acme, but a command across orgs needs the operating org named.
    for (const args of [['events', 'failed'], ['queues'], ['audit', 'anchor'], ['status', 'x']])
      await expect(as({ CS_API_KEY: adminKey }, ...args)).rejects.toEqual(
        refused(/CS_OPERATOR_ORG/),
      );
    await expect(as({ CS_API_KEY: 'csk_nope' }, 'costs')).rejects.toEqual(
      refused(/does not authenticate/),
    );
    // replay fetches any org's histories from the cluster: an operator's, refused before any
    // fetch (exported files, --file, are the caller's own and need no key).
    await expect(as({}, 'replay', 'some-workflow-id')).rejects.toEqual(refused(/CS_API_KEY/));
    await expect(
      as({ CS_API_KEY: await key('rita', ORG) }, 'replay', '--all', '--type', 'eventWorkflow'),
    ).rejects.toEqual(refused(/not an owner or admin|CS_OPERATOR_ORG/));
  });

  it('commands on one org’s data need a key for that org whose roles allow it, as the API does', async () => {
    const key = async (userId: string, orgId: string) =>
      (await issueApiKey(database.db, { kind: 'user', userId }, { issuedBy: 'test', orgId })).key;
    const denied = (message: RegExp) =>
      expect.objectContaining({
        name: 'AuthenticationError',
        message: expect.stringMatching(message),
      });
    const dir = mkdtempSync(join(tmpdir(), 'cs-ingest-'));
    try {
      writeFileSync(join(dir, 'c.txt'), 'Net sales were $9 million in fiscal 2024.\n');
      const file = join(dir, 'c.txt');
      for (const args of [
        ['ingest', '--org', ORG, '--file', file],
        ['trial-balance', '--org', ORG],
        ['facts', '--org', ORG, '--doc', 'x'],
        ['state', '--org', ORG, '--request', 'x'],
        ['agents', 'run', '--org', ORG, '--id', 'x'],
      ]) {
        const argv = args[0] === 'trial-balance' ? ['gateway', ...args] : args;
        await expect(as({}, ...argv)).rejects.toEqual(denied(/CS_API_KEY/));
        await expect(as({ CS_API_KEY: await key('gina', 'globex') }, ...argv)).rejects.toEqual(
          denied(/issued for org globex/),
        );
      }
      // Changes across every org are an operator's; one org's, a member's.
      await expect(
        as({ CS_API_KEY: await key('rita', ORG) }, 'gateway', 'changes', '--agent-instance', 'i-1'),
      ).rejects.toBeInstanceOf(OperatorKeyError);
      expect(
        (
          await as(
            { CS_API_KEY: await key('rita', ORG) },
            'gateway',
            'changes',
            '--agent-instance',
            'i-1',
            '--org',
            ORG,
          )
        ).exitCode,
      ).toBe(0);
      // A reviewer reads the books and may ingest; the document is the org's.
      const rita = { CS_API_KEY: await key('rita', ORG) };
      expect((await as(rita, 'gateway', 'trial-balance', '--org', ORG)).exitCode).toBe(0);
      expect((await as(rita, 'ingest', '--org', ORG, '--file', file)).out).toMatchObject({
        status: 'ready',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an admin of the org runs its commands; with CS_OPERATOR_ORG, the cross-org ones', async () => {
    expect((await as({ CS_API_KEY: adminKey }, 'events', 'failed', '--org', ORG)).exitCode).toBe(0);
    expect((await as(operatorEnv, 'events', 'failed')).exitCode).toBe(0);
    expect((await as(operatorEnv, 'costs', '--by', 'org')).exitCode).toBe(0);
  });

  it('exits 2 in a process (cli.ts) with OperatorKeyError', async () => {
    const { CS_API_KEY: _k, CS_API_KEY_FILE: _f, ...env } = process.env;
    const status = await new Promise<number | null>((resolve) => {
      const child = spawn(
        process.execPath,
        [require.resolve('tsx/cli'), join(__dirname, '..', 'client', 'cli.ts'), 'queues'],
        { env: { ...env, DATABASE_URL: database.url }, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.on('close', (code) => {
        expect(err).toMatch(/OperatorKeyError/);
        resolve(code);
      });
    });
    expect(status).toBe(2);
  });
});

describe('countersign events', () => {
  let failedId = '';
  let workflowId = '';
  let retriedId = '';

  it('lists a failed event under `events failed`, and `events retry` completes it', async () => {
    const accepted = await rt.events.acceptEvent(failingEvent);
    failedId = accepted.eventId;
    workflowId = accepted.workflowId;
    expect((await rt.events.result(workflowId)).state).toBe('failed');

    const listed = (await cli('events', 'failed', '--org', ORG)).out as {
      id: string;
      state: string;
    }[];
    expect(listed.filter((e) => e.id === failedId)).toEqual([
      expect.objectContaining({ id: failedId, state: 'failed' }),
    ]);

    const retried = await cli('events', 'retry', failedId, '--org', ORG, '--wait');
    expect(retried.exitCode).toBe(0);
    expect(retried.out).toMatchObject({
      retryOf: failedId,
      status: 'accepted',
      workflowId,
      result: { state: 'completed', attempts: 1 },
    });
    retriedId = (retried.out as { eventId: string }).eventId;
    // Superseded by its retry: no longer the operator's to act on.
    const after = (await cli('events', 'failed', '--org', ORG)).out as { id: string }[];
    expect(after.map((e) => e.id)).not.toContain(failedId);
  });

  it('refuses to retry an event that did not fail, naming its state', async () => {
    const shown = (await cli('events', 'show', retriedId, '--org', ORG)).out as {
      event: { state: string };
    };
    expect(shown.event.state).toBe('completed');
    await expect(cli('events', 'retry', retriedId, '--org', ORG)).rejects.toMatchObject({
      name: 'InvalidRequestError',
      issues: [{ path: 'id', message: 'state completed' }],
    });
    await expect(cli('events', 'retry', 'evt_does_not_exist', '--org', ORG)).rejects.toMatchObject({
      name: 'InvalidRequestError',
      issues: [{ path: 'id', message: 'unknown event' }],
    });
  });

  it('`status` shows the run with its search attributes; `reset` to the first workflow task starts a run that completes again', async () => {
    const status = (await cli('status', workflowId)).out as Record<string, unknown>;
    expect(status).toMatchObject({
      workflowId,
      type: 'eventWorkflow',
      status: 'COMPLETED',
      searchAttributes: { CsOrg: ORG, CsEventType: 'document.received', CsState: 'completed' },
      summary: `document.received · ${ORG} · from connector`,
    });
    const reset = (await cli('reset', workflowId, '--to', 'first-workflow-task')).out as {
      fromRunId: string;
      newRunId: string;
      eventId: number;
    };
    expect(reset.fromRunId).toBe(status.runId);
    expect(reset.newRunId).not.toBe(status.runId);
    expect(reset.eventId).toBeGreaterThan(0);
    const result = (await rt.client.workflow.getHandle(workflowId, reset.newRunId).result()) as {
      state: string;
    };
    expect(result.state).toBe('completed');
    await expect(cli('reset', workflowId, '--to', '1')).rejects.toMatchObject({
      name: 'InvalidRequestError',
      issues: [{ path: 'to', message: 'not a completed workflow task' }],
    });
  });

  it('`replay` passes the recorded runs on unchanged code and names the event a modified workflow no longer reproduces', async () => {
    const bundle = process.env.CS_TEST_WORKFLOW_BUNDLE ?? '';
    // The run by id, and every run of the type since the test began (the failed event, its
    // retry and the reset run), in one replay worker. The extra filter keeps the list to this
    // test's runs: the suite's other files start eventWorkflows in the same namespace, and
    // replaying all of them under load outlasted the test's time.
    const [unchanged, modified] = await Promise.all([
      cliProcess(
        'replay',
        workflowId,
        '--all',
        '--type',
        'eventWorkflow',
        '--since',
        '10m',
        '--query',
        `WorkflowId = "${workflowId}"`,
        '--bundle',
        bundle,
      ),
      cliProcess(
        'replay',
        workflowId,
        '--workflows',
        join(__dirname, 'fixtures', 'replay', 'modified-workflows.ts'),
      ),
    ]);
    expect(unchanged.out.failed).toBe(0);
    expect(unchanged.out.results.filter((r) => r.workflowId === workflowId)).toHaveLength(4);
    expect(unchanged.status).toBe(0);

    expect(modified.status).toBe(1);
    const [r] = modified.out.results;
    expect(r).toMatchObject({ workflowId, ok: false, error: 'DeterminismViolationError' });
    expect(r?.message).toMatch(/^\[TMPRL1100\] Nondeterminism error/);
    // The new timer met the recorded search-attribute upsert: that event is named.
    expect(r?.message).toMatch(/Timer machine does not handle this event/);
    expect(r?.mismatch).toMatchObject({
      eventType: 'UPSERT_WORKFLOW_SEARCH_ATTRIBUTES',
      detail: 'CsEventType, CsOrg, CsState',
    });
    expect(r?.message).toContain(`HistoryEvent(id: ${r?.mismatch?.eventId},`);
  });
});
