import { parseArgs } from 'node:util';
import Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import { loadConfig } from '../config/env';
import { openDatabase } from '../db/connection';
import {
  costRollup,
  getRunRecord,
  listAgentRows,
  runsOfEvent,
} from '../db/repositories/agent-runs';
import { eventTransitionsOf, getEvent } from '../db/repositories/events';
import { loadAgentDefinitions } from '../activities/agent-runs/agent-files';
import { measureToolContext } from '../activities/agent-runs/model';
import { loadPriceTable } from '../activities/agent-runs/pricing';
import { microToUsd4 } from '../workflows/agent-runs/config';
import { TOOL_NAMES } from '../workflows/agent-runs/tools';
import { EventsClient } from './events-client';
import { InvalidRequestError } from './errors';
import { connectClient } from './temporal-connection';

export const AGENTS_USAGE = `  agents list                                   agents/ with mode, tier, tools and tool-context tokens
  agents run   --org ORG --id RUN_ID            one run: trigger, states, progress, output, writes, model calls
  agents costs --by run|agent|org|month [--org ORG] [--month YYYY-MM]
  events send  --org ORG --type TYPE --source email|schedule|connector|rule|agent --payload JSON
  events show  --org ORG --id EVENT_ID`;

const Args = z.object({
  id: z.string().min(1).optional(),
  by: z.enum(['run', 'agent', 'org', 'month']).optional(),
  org: z.string().min(1).optional(),
  month: z
    .string()
    .regex(/^\d{4}-\d{2}$/)
    .optional(),
  type: z.string().optional(),
  source: z.string().optional(),
  payload: z.string().optional(),
});

const need = <T>(v: T | undefined, flag: string): T => {
  if (v === undefined)
    throw new InvalidRequestError(`--${flag} is required`, [{ path: flag, message: 'required' }]);
  return v;
};
const print = (v: unknown) =>
  console.log(JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x), 2));

/** `npm run cli -- agents …` and `events …`: the operator's view of the agent runtime. */
export async function runAgentsCli(argv: string[]): Promise<void> {
  const [group, sub, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: Object.fromEntries(
      Object.keys(Args.shape).map((k) => [k, { type: 'string' as const }]),
    ),
    strict: true,
  });
  const parsed = Args.safeParse(values);
  if (!parsed.success) throw InvalidRequestError.fromZod('arguments', parsed.error);
  const a = parsed.data;
  const cfg = loadConfig();
  const command = `${group} ${sub ?? ''}`;

  if (command === 'agents list') {
    const defs = loadAgentDefinitions();
    const prices = loadPriceTable();
    const anthropic = cfg.ANTHROPIC_API_KEY
      ? new Anthropic({ apiKey: cfg.ANTHROPIC_API_KEY, baseURL: cfg.ANTHROPIC_BASE_URL })
      : null;
    const database = cfg.DATABASE_URL ? await openDatabase(cfg) : null;
    try {
      const rows = database ? await listAgentRows(database.db) : [];
      for (const d of defs) {
        const ctx = await measureToolContext(
          {
            prompt: d.prompt,
            allowedTools: d.config.allowed_tools,
            model: prices[d.config.model_tier].model,
          },
          anthropic,
        );
        const row = rows.find((r) => r.agentType === d.config.agent_type);
        console.log(
          [
            d.config.agent_type.padEnd(24),
            d.config.execution_mode.padEnd(7),
            d.config.model_tier.padEnd(9),
            `max ${d.config.max_concurrent_runs}`.padEnd(7),
            `${ctx.tokens} tokens (${ctx.method})`.padEnd(28),
            row ? (row.enabled ? 'enabled' : 'DISABLED') : 'not synced',
            `tools: ${d.config.allowed_tools.join(', ')}`,
            `writes: ${d.config.allowed_workflows.join(', ') || 'none'}`,
            `on: ${d.config.trigger_events.join(', ')}`,
          ].join('  '),
        );
      }
      const all = await measureToolContext(
        { prompt: '', allowedTools: [...TOOL_NAMES], model: prices.standard.model },
        anthropic,
      );
      console.log(`(the whole registry unfiltered: ${all.tokens} tokens, ${all.method})`);
    } finally {
      await database?.close();
    }
    return;
  }

  const known = ['agents run', 'agents costs', 'events send', 'events show'];
  if (!known.includes(command)) {
    console.error(`usage: npm run cli -- <command>\n${AGENTS_USAGE}`);
    process.exitCode = 2;
    return;
  }
  const database = await openDatabase(cfg);
  try {
    if (command === 'agents run') {
      print(await getRunRecord(database.db, need(a.org, 'org'), need(a.id, 'id')));
    } else if (command === 'agents costs') {
      const rows = await costRollup(database.db, need(a.by, 'by'), {
        orgId: a.org,
        month: a.month,
      });
      for (const r of rows)
        console.log(
          `${r.key.padEnd(60)} ${String(r.calls).padStart(6)} calls  in ${r.inputTokens}  out ${r.outputTokens}  cache w ${r.cacheCreationTokens} r ${r.cacheReadTokens}  $${microToUsd4(r.costMicroUsd)}`,
        );
    } else if (command === 'events send') {
      const client = await connectClient(cfg);
      try {
        const events = new EventsClient(client, database.db, {
          taskQueue: cfg.TEMPORAL_TASK_QUEUE,
        });
        print(
          await events.acceptEvent({
            orgId: need(a.org, 'org'),
            type: need(a.type, 'type'),
            source: need(a.source, 'source'),
            payload: JSON.parse(a.payload ?? '{}') as unknown,
          }),
        );
      } finally {
        await client.connection.close();
      }
    } else {
      const org = need(a.org, 'org');
      const id = need(a.id, 'id');
      print({
        event: await getEvent(database.db, org, id),
        transitions: await eventTransitionsOf(database.db, org, id),
        runs: await runsOfEvent(database.db, org, id),
      });
    }
  } finally {
    await database.close();
  }
}
