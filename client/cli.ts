import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { loadConfig } from '../config/env';
import { openDatabase } from '../db/connection';
import { authenticateToken } from '../db/repositories/organizations';
import { auditHead, auditedOrgs, verifyAuditChain } from '../db/repositories/audit';
import { AnalysisClient } from './analysis-client';
import { GatewayClient } from './gateway-client';
import { connectClient } from './temporal-connection';
import { ingestFile } from './documents';
import { AuthenticationError, InvalidRequestError } from './errors';
import { AGENTS_USAGE, runAgentsCli } from './agents-cli';

/**
 * Operator and reviewer CLI: ingest, analyze, state, result, review. Every argument is
 * validated with zod; a review is sent only after the reviewer's token authenticates.
 */
const USAGE = `usage: npm run cli -- <command> [options]
  ingest  --org ORG --file PATH [--id DOC_ID] [--type 10-K]
  analyze --org ORG --request ID --docs DOC[,DOC] --type QUERY_TYPE --query TEXT [--framework basel_iii] [--metric M] [--period FY2024]
          | --json FILE   (a full request as JSON)
  state   --org ORG --request ID
  result  --org ORG --request ID
  review  --org ORG --request ID --decision approve|reject|correct --user USER_ID --token TOKEN [--note TEXT] [--correct CLAIM_ID=VALUE ...]
  gateway submit  --file WRITE.json [--dry-run true]
  gateway approve --org ORG --key IDEMPOTENCY_KEY --user USER_ID --token TOKEN [--note TEXT]
  gateway reject  --org ORG --key IDEMPOTENCY_KEY --user USER_ID --token TOKEN --note TEXT
  gateway changes --agent-instance ID [--org ORG]
  gateway trial-balance --org ORG [--as-of YYYY-MM-DD]
  audit verify [--org ORG]   (every org when omitted; exit code 3 when a chain is broken)
  audit head   --org ORG     (the chain head to anchor outside the database)
${AGENTS_USAGE}`;

const Args = z.object({
  org: z.string().min(1).optional(),
  file: z.string().optional(),
  id: z.string().optional(),
  type: z.string().optional(),
  request: z.string().optional(),
  docs: z.string().optional(),
  query: z.string().optional(),
  framework: z.string().optional(),
  metric: z.string().optional(),
  period: z.string().optional(),
  json: z.string().optional(),
  decision: z.enum(['approve', 'reject', 'correct']).optional(),
  user: z.string().optional(),
  token: z.string().optional(),
  note: z.string().optional(),
  correct: z.array(z.string().regex(/^[^=]+=-?\d+(\.\d+)?$/, 'CLAIM_ID=VALUE')).optional(),
  key: z.string().optional(),
  'dry-run': z.enum(['true', 'false']).optional(),
  'agent-instance': z.string().min(1).optional(),
  'as-of': z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
});

function need<T>(v: T | undefined, flag: string): T {
  if (v === undefined)
    throw new InvalidRequestError(`--${flag} is required`, [{ path: flag, message: 'required' }]);
  return v;
}

async function main(argv: string[]): Promise<void> {
  // `gateway <sub>` is one command with its own subcommand.
  const [first, ...afterFirst] = argv;
  if (first === 'agents' || first === 'events') return runAgentsCli(argv);
  const [command, rest] =
    first === 'gateway' || first === 'audit'
      ? [`${first} ${afterFirst[0] ?? ''}`, afterFirst.slice(1)]
      : [first, afterFirst];
  const { values } = parseArgs({
    args: rest,
    options: Object.fromEntries(
      Object.keys(Args.shape).map((k) => [
        k,
        { type: 'string' as const, multiple: k === 'correct' },
      ]),
    ),
    strict: true,
  });
  const parsed = Args.safeParse(values);
  if (!parsed.success) throw InvalidRequestError.fromZod('arguments', parsed.error);
  const a = parsed.data;
  const cfg = loadConfig();
  if (command === 'audit verify' || command === 'audit head') return audit(command, a.org);
  const client = await connectClient(cfg);
  const analysis = new AnalysisClient(client, cfg.TEMPORAL_TASK_QUEUE);
  const print = (v: unknown) => console.log(JSON.stringify(v, null, 2));
  try {
    switch (command) {
      case 'ingest': {
        const database = await openDatabase(cfg);
        try {
          const r = await ingestFile(
            { db: database.db, client, taskQueue: cfg.TEMPORAL_TASK_QUEUE },
            { orgId: need(a.org, 'org'), path: need(a.file, 'file'), id: a.id, docType: a.type },
          );
          print({ ...r.ingestion, created: r.created });
        } finally {
          await database.close();
        }
        return;
      }
      case 'analyze': {
        const req = a.json
          ? JSON.parse(readFileSync(a.json, 'utf8'))
          : {
              requestId: need(a.request, 'request'),
              orgId: need(a.org, 'org'),
              docIds: need(a.docs, 'docs').split(','),
              queryType: need(a.type, 'type'),
              queryText: need(a.query, 'query'),
              ...(a.framework ? { framework: a.framework } : {}),
              constraints: {
                ...(a.metric ? { metric: a.metric } : {}),
                ...(a.period ? { period: a.period } : {}),
              },
              requestedBy: 'cli',
            };
        const started = await analysis.start(req);
        const view = await analysis.settle(req.orgId, req.requestId);
        print({
          ...started,
          status: view.status,
          machineState: view.machineState,
          reasons: view.validation?.reasons ?? [],
          answer: view.result?.answer ?? view.proposedAnswer,
        });
        return;
      }
      case 'state':
        print(await analysis.state(need(a.org, 'org'), need(a.request, 'request')));
        return;
      case 'result':
        print(await analysis.result(need(a.org, 'org'), need(a.request, 'request')));
        return;
      case 'review': {
        const org = need(a.org, 'org');
        const user = need(a.user, 'user');
        const database = await openDatabase(cfg);
        try {
          if (!(await authenticateToken(database.db, user, need(a.token, 'token'))))
            throw new AuthenticationError(`Token does not authenticate user ${user}`);
        } finally {
          await database.close();
        }
        const corrections = (a.correct ?? []).map((c) => {
          const [claimId = '', value = ''] = c.split('=');
          return { claimId, value };
        });
        print(
          await analysis.review(org, need(a.request, 'request'), {
            decision: need(a.decision, 'decision'),
            reviewer: { userId: user, orgId: org },
            note: a.note,
            corrections,
          }),
        );
        return;
      }
      case 'gateway submit':
      case 'gateway approve':
      case 'gateway reject':
      case 'gateway changes':
      case 'gateway trial-balance': {
        const database = await openDatabase(cfg);
        try {
          const gateway = new GatewayClient(client, database.db, cfg.TEMPORAL_TASK_QUEUE);
          if (command === 'gateway submit') {
            const write = JSON.parse(readFileSync(need(a.file, 'file'), 'utf8')) as {
              orgId: string;
              idempotencyKey: string;
            };
            if (a['dry-run'] === 'true')
              return print(await gateway.submit(write, { dryRun: true }));
            const started = await gateway.submit(write);
            print({ ...started, state: await gateway.settle(write.orgId, write.idempotencyKey) });
          } else if (command === 'gateway approve' || command === 'gateway reject') {
            const user = need(a.user, 'user');
            if (!(await authenticateToken(database.db, user, need(a.token, 'token'))))
              throw new AuthenticationError(`Token does not authenticate user ${user}`);
            const org = need(a.org, 'org');
            const k = need(a.key, 'key');
            print(
              command === 'gateway approve'
                ? await gateway.approve(org, k, user, a.note)
                : await gateway.reject(org, k, user, need(a.note, 'note')),
            );
          } else if (command === 'gateway changes') {
            print(
              await gateway.changesByAgentInstance(
                need(a['agent-instance'], 'agent-instance'),
                a.org,
              ),
            );
          } else {
            print(await gateway.trialBalance(need(a.org, 'org'), a['as-of']));
          }
        } finally {
          await database.close();
        }
        return;
      }
      default:
        console.error(USAGE);
        process.exitCode = 2;
    }
  } finally {
    await client.connection.close();
  }
}

/** The audit chain needs only the database, not Temporal. */
async function audit(command: 'audit verify' | 'audit head', org: string | undefined) {
  const database = await openDatabase(loadConfig());
  const print = (v: unknown) => console.log(JSON.stringify(v, null, 2));
  try {
    if (command === 'audit head') return print(await auditHead(database.db, need(org, 'org')));
    const orgs = org ? [org] : await auditedOrgs(database.db);
    const results = [];
    for (const o of orgs) results.push(await verifyAuditChain(database.db, o));
    print(results);
    const broken = results.filter((r) => !r.ok);
    for (const r of broken)
      console.error(
        `audit chain of ${r.orgId} is broken: ${r.firstBreak?.kind} — ${r.firstBreak?.detail}`,
      );
    if (broken.length > 0) process.exitCode = 3;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof Error ? `${err.name}: ${err.message}` : err);
  process.exit(1);
});
