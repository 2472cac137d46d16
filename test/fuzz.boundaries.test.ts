import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { stringify } from 'yaml';
import type { Client } from '@temporalio/client';
import type { Database } from '../db/connection';
import { EventsClient, EVENT_BOUNDS } from '../client/events-client';
import { InvalidRequestError } from '../client/errors';
import { checkInputBounds } from '../workflows/input-bounds';
import { EventEnvelopeSchema } from '../workflows/events/contract';
import {
  AgentConfigError,
  loadAgentDefinitions,
  MAX_CONFIG_BYTES,
  MAX_PROMPT_BYTES,
} from '../activities/agent-runs/agent-files';
import { createTestDatabase } from './support/database';

/**
 * Two library boundaries under arbitrary input: an event envelope handed to
 * EventsClient.acceptEvent (connectors, schedules, agents, the CLI — not only the API), and
 * an agent's folder (config.yaml + prompt.md) handed to the loader. Each refuses with its
 * typed error — InvalidRequestError with issue paths; AgentConfigError naming the file and
 * field — in bounded time, with nothing stored, started or half-registered.
 */
const RUNS = 100;

// ---- event envelopes -----------------------------------------------------------------------
let database: Database;
const reached: string[] = [];
const temporalTrap = new Proxy(
  {},
  {
    get(_t, prop) {
      if (prop === 'then') return undefined;
      reached.push(String(prop));
      throw new Error(`Temporal reached (client.${String(prop)})`);
    },
  },
) as Client;

async function eventRows(): Promise<number> {
  const { rows } = await database.pool.query<{ n: string }>(
    `select (select count(*) from events) + (select count(*) from event_transitions) as n`,
  );
  return Number(rows[0]?.n);
}

const VALID_EVENT = {
  orgId: 'acme',
  type: 'document.received',
  source: 'connector',
  payload: { documentId: 'd-1', lines: [{ amount: '12.50', memo: 'paper' }] },
  causation: { agentInstanceId: 'triage:run-1', hop: 1 },
};

const hostile = fc.oneof(
  fc.anything({ maxDepth: 2 }),
  fc.constantFrom(
    'a\u0000b',
    'x\ud800',
    '\udc00y',
    '',
    'x'.repeat(300),
    0,
    3,
    1.5,
    -1,
    null,
    [],
    Number.NaN,
    Number.POSITIVE_INFINITY,
    'Document.Received',
    'document..received',
    'document',
    JSON.parse('{"__proto__": {"polluted": true}}') as unknown,
    JSON.parse('{"constructor": {"prototype": {"x": 1}}}') as unknown,
  ),
  fc.integer({ min: 15, max: 40 }).map((n) => {
    let v: unknown = 'leaf';
    for (let i = 0; i < n; i++) v = i % 2 ? [v] : { a: v };
    return v;
  }),
);

/** The valid envelope with one value, at any depth (or a new key), replaced by a hostile one. */
function mutate(sample: unknown, path: number[], value: unknown, extraKey: boolean): unknown {
  if (sample === null || typeof sample !== 'object') return value;
  const keys = Object.keys(sample);
  const copy: Record<string, unknown> = Array.isArray(sample)
    ? ({ ...(sample as unknown[]) } as Record<string, unknown>)
    : { ...(sample as Record<string, unknown>) };
  if (path.length <= 1 && extraKey) {
    copy[`extra_${path[0] ?? 0}`] = value;
  } else {
    const [head = 0, ...rest] = path;
    const k = keys[head % Math.max(keys.length, 1)] ?? 'x';
    copy[k] = rest.length === 0 ? value : mutate(copy[k], rest, value, extraKey);
  }
  return Array.isArray(sample) ? Object.values(copy) : copy;
}

const envelope = fc.oneof(
  { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }) },
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.array(fc.nat(10), { minLength: 1, maxLength: 5 }), hostile, fc.boolean())
      .map(([path, v, extra]) => mutate(VALID_EVENT, path, v, extra)),
  },
);

const storable = (raw: unknown) =>
  checkInputBounds(raw, EVENT_BOUNDS).ok && EventEnvelopeSchema.safeParse(raw).success;

describe('event envelopes under fuzzing', () => {
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('acceptEvent refuses a bad envelope with InvalidRequestError and its paths: no row, no workflow', async () => {
    const events = new EventsClient(temporalTrap, database.db, { taskQueue: 'fuzz-events' });
    const before = await eventRows();
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(envelope, async (raw) => {
        fc.pre(!storable(raw));
        const err = await events.acceptEvent(raw).then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(InvalidRequestError);
        const issues = (err as InvalidRequestError).issues;
        expect(issues.length).toBeGreaterThan(0);
        for (const i of issues)
          expect([typeof i.path, typeof i.message]).toEqual(['string', 'string']);
        refused++;
      }),
      { numRuns: RUNS },
    );
    expect(reached).toEqual([]);
    expect(await eventRows()).toBe(before);
    expect(refused).toBeGreaterThan(RUNS / 2);
    // The trap can fire: a storable envelope goes on to start its workflow.
    await expect(events.acceptEvent(VALID_EVENT)).rejects.toThrow('Temporal reached');
    expect(reached.length).toBeGreaterThan(0);
    reached.length = 0;
  });

  it('refuses what jsonb cannot store before any workflow (regression found by fuzzing)', async () => {
    // PostgreSQL's own answer to such a payload, which the event's workflow used to meet.
    await expect(
      database.pool.query('select $1::jsonb', [JSON.stringify({ memo: 'a\u0000b' })]),
    ).rejects.toMatchObject({ code: '22P05' });
    const events = new EventsClient(temporalTrap, database.db);
    for (const payload of [{ memo: 'a\u0000b' }, { memo: 'x\ud800' }, { 'k\u0000': 1 }]) {
      await expect(events.acceptEvent({ ...VALID_EVENT, payload })).rejects.toBeInstanceOf(
        InvalidRequestError,
      );
    }
    expect(reached).toEqual([]);
  });
});

// ---- agent configs -------------------------------------------------------------------------
const VALID_CONFIG = {
  agent_type: 'probe',
  model_tier: 'fast',
  execution_mode: 'llm',
  max_concurrent_runs: 1,
  timeout_minutes: 5,
  allowed_workflows: ['journal.post'],
  allowed_tools: ['master_data_search', 'submit'],
  trigger_events: ['probe.requested'],
  budgets: { per_run_usd: '0.10' },
  schedules: [{ id: 'daily', cron: '0 6 * * *', event_type: 'schedule.daily' }],
};
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** An agents/ folder holding `probe` with this config text (and `aaa`, valid, beside it). */
function agentsDir(configText: string, prompt = '# probe\nRead the event.\n'): string {
  const dir = mkdtempSync(join(tmpdir(), 'cs-fuzz-agents-'));
  dirs.push(dir);
  for (const [name, text] of [
    ['aaa', stringify({ ...VALID_CONFIG, agent_type: 'aaa' })],
    ['probe', configText],
  ] as const) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'config.yaml'), text);
    writeFileSync(join(dir, name, 'prompt.md'), name === 'probe' ? prompt : '# aaa\n');
  }
  return dir;
}

/** Loads, timing it; the outcome is the definitions or the typed error, anything else throws. */
function load(dir: string): { defs: number; error: AgentConfigError | null; ms: number } {
  const t0 = performance.now();
  try {
    const defs = loadAgentDefinitions(dir).length;
    return { defs, error: null, ms: performance.now() - t0 };
  } catch (err) {
    if (err instanceof AgentConfigError) return { defs: 0, error: err, ms: performance.now() - t0 };
    throw err;
  }
}

const yamlScalar = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('ledger.rewrite', 'shell', 'file_write', 'web_fetch', '*', 'submit', '0.1', 0.1),
);
/** A config with one key replaced, added or removed: wrong types, unknown tools and kinds. */
const mutatedConfig = fc
  .tuple(
    fc.constantFrom(...Object.keys(VALID_CONFIG), 'temperature', '__proto__', 'budgets'),
    fc.oneof(
      yamlScalar,
      fc.array(yamlScalar, { maxLength: 4 }),
      fc.dictionary(fc.string({ maxLength: 8 }), yamlScalar, { maxKeys: 3 }),
      fc.constant(undefined),
    ),
  )
  .map(([k, v]) =>
    // fromEntries makes `__proto__` an own key, as a YAML mapping would.
    stringify(
      Object.fromEntries([
        ...Object.entries(VALID_CONFIG).filter(([key]) => key !== k),
        ...(v === undefined ? [] : [[k, v] as const]),
      ]),
    ),
  );
/** Text that is YAML of the wrong shape, or not YAML at all. */
const configText = fc.oneof(
  { weight: 4, arbitrary: mutatedConfig },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => stringify(v)) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      'agent_type: probe\nagent_type: probe',
      'a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      `settings: ${'['.repeat(5000)}${']'.repeat(5000)}`,
      '__proto__: {agent_type: probe}\nagent_type: probe',
      'agent_type: !!js/function "function(){}"',
      '\u0000\u0001\uffff',
      '%YAML 9.9\n---\na: 1',
      '? [a, b]\n: c',
    ),
  },
);

describe('agent configs under fuzzing', () => {
  it('a bad agents/<type>/ folder is refused with AgentConfigError naming its file: never a crash, never a partial load', () => {
    fc.assert(
      fc.property(configText, (text) => {
        const dir = agentsDir(text);
        const r = load(dir);
        expect(r.ms).toBeLessThan(2000);
        if (r.error === null) {
          // Only a config the schema accepts loads — and then both folders do.
          expect(r.defs).toBe(2);
          return;
        }
        // All or nothing: the valid `aaa` beside it is not returned on its own.
        expect(r.defs).toBe(0);
        expect(r.error.file).toMatch(
          new RegExp(`^${basename(dir)}/probe/(config\\.yaml|prompt\\.md)$`),
        );
        expect(typeof r.error.fieldPath).toBe('string');
        expect(r.error.message.startsWith(`${r.error.file}: `)).toBe(true);
        rmSync(dir, { recursive: true, force: true });
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses a huge config.yaml or prompt.md before parsing it (regression found by fuzzing)', () => {
    // One long mapping: YAML's duplicate-key check is quadratic (300 KB took 3.6 s, 4 MB minutes).
    const longMap = `settings:\n${Array.from({ length: 400_000 }, (_, i) => `  k${i}: ${i}`).join('\n')}`;
    for (const [text, prompt, file] of [
      [longMap, undefined, 'config.yaml'],
      [`description: ${'x'.repeat(MAX_CONFIG_BYTES)}`, undefined, 'config.yaml'],
      [stringify(VALID_CONFIG), `# p\n${'y'.repeat(MAX_PROMPT_BYTES)}`, 'prompt.md'],
    ] as const) {
      const dir = agentsDir(text, prompt);
      const r = load(dir);
      expect(r.ms).toBeLessThan(1000);
      expect(r.error?.file).toBe(`${basename(dir)}/probe/${file}`);
      expect(r.error?.message).toMatch(/bytes, over the \d+-byte limit$/);
    }
    // The limits leave room: the shipped configs are a few KB.
    const ok = load(agentsDir(stringify(VALID_CONFIG)));
    expect([ok.error, ok.defs]).toEqual([null, 2]);
  });
});
