import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { loadConfig } from '../config/env';
import { openDatabase } from '../db/connection';
import { auditHead, auditedOrgs, verifyAuditChain } from '../db/repositories/audit';
import { hasAnyRole, rolesInOrg } from '../db/repositories/organizations';
import {
  apiKeyOwner,
  getAgentIdentity,
  issueApiKey,
  revokeApiKey,
  upsertAgentIdentity,
} from '../db/repositories/credentials';
import type { Db } from '../db/connection';
import { authenticateCli, personOf } from './credentials';
import { AnalysisClient } from './analysis-client';
import { GatewayClient } from './gateway-client';
import { WRITE_KINDS } from '../workflows/gateway.contract';
import { connectClient } from './temporal-connection';
import { ingestFile } from './documents';
import { AuthenticationError, InvalidRequestError } from './errors';
import { AGENTS_USAGE, runAgentsCli } from './agents-cli';
import { RequestsClient, cliAnswer } from './requests-client';

/**
 * Operator and reviewer CLI: ingest, analyze, state, result, review, gateway, keys, agents.
 * Every argument is validated with zod. Commands that act for someone act as the holder of
 * the API key in CS_API_KEY or CS_API_KEY_FILE (never an argument), checked as the HTTP
 * API checks it.
 */
const USAGE = `usage: npm run cli -- <command> [options]
  ingest  --org ORG --file PATH [--id DOC_ID] [--type 10-K]
  analyze --org ORG --request ID --docs DOC[,DOC] --type QUERY_TYPE --query TEXT [--framework basel_iii] [--metric M] [--period FY2024]
          | --json FILE   (a full request as JSON)
  state   --org ORG --request ID
  result  --org ORG --request ID
  review  --org ORG --request ID --decision approve|reject|correct [--note TEXT] [--correct CLAIM_ID=VALUE ...]
  gateway submit  --file WRITE.json [--dry-run true]       (submitted as the key's holder)
  gateway approve --org ORG --key IDEMPOTENCY_KEY [--note TEXT]
  gateway reject  --org ORG --key IDEMPOTENCY_KEY --note TEXT
  gateway resume  --org ORG --key IDEMPOTENCY_KEY [--note TEXT]   (admin/owner: after an outage)
  gateway changes --agent-instance ID [--org ORG]
  gateway trial-balance --org ORG [--as-of YYYY-MM-DD]
  inbox  --org ORG                              (the key holder's open requests, approvals and reviews)
  decide REQUEST_ID --org ORG (--decision approve|reject [--note TEXT] | --answer JSON | --text TEXT)
  audit verify [--org ORG]   (every org when omitted; exit code 3 when a chain is broken)
  audit head   --org ORG     (the chain head to anchor outside the database)
  keys issue  --org ORG (--user USER_ID | --agent AGENT_ID) [--days N] [--label TEXT]   (admin/owner of ORG)
  keys revoke --org ORG --key-id KEY_ID                                                (admin/owner of ORG)
  agents register --org ORG --agent AGENT_ID --operator USER_ID --allow KIND[,KIND]   (admin/owner of ORG)
${AGENTS_USAGE}
Credentials: CS_API_KEY=<key> or CS_API_KEY_FILE=<path>; never an argument.`;

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
  user: z.string().min(1).max(128).optional(),
  agent: z.string().min(1).max(100).optional(),
  operator: z.string().min(1).max(128).optional(),
  allow: z.string().optional(),
  days: z.coerce.number().int().min(1).max(1825).optional(),
  label: z.string().max(200).optional(),
  'key-id': z
    .string()
    .regex(/^[0-9a-f]{16}$/)
    .optional(),
  note: z.string().optional(),
  answer: z.string().max(100_000).optional(),
  text: z.string().max(10_000).optional(),
  correct: z.array(z.string().regex(/^[^=]+=-?\d+(\.\d+)?$/, 'CLAIM_ID=VALUE')).optional(),
  key: z.string().optional(),
  'dry-run': z.enum(['true', 'false']).optional(),
  'agent-instance': z.string().min(1).optional(),
  'as-of': z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
});

/** The key's holder, who must be an admin or owner of the org. */
async function requireAdmin(db: Db, org: string): Promise<string> {
  const cfg = loadConfig();
  const user = personOf(await authenticateCli(db, cfg));
  if (!(await hasAnyRole(db, org, user, ['admin', 'owner'])))
    throw new AuthenticationError(`User ${user} is not an admin or owner of org ${org}`);
  return user;
}

function need<T>(v: T | undefined, flag: string): T {
  if (v === undefined)
    throw new InvalidRequestError(`--${flag} is required`, [{ path: flag, message: 'required' }]);
  return v;
}

async function main(argv: string[]): Promise<void> {
  // `gateway <sub>` is one command with its own subcommand.
  const [first, ...afterFirst] = argv;
  // The runtime's operator commands (agents list/run/costs, events …) live in agents-cli.ts;
  // `agents register` (an agent's stored identity and permissions) is handled here.
  if ((first === 'agents' && afterFirst[0] !== 'register') || first === 'events')
    return runAgentsCli(argv);
  const [command, rest] =
    first === 'gateway' || first === 'audit' || first === 'keys' || first === 'agents'
      ? [`${first} ${afterFirst[0] ?? ''}`, afterFirst.slice(1)]
      : [first, afterFirst];
  // `decide <request id>`: the id is the one positional argument.
  let positional: string | undefined;
  if (command === 'decide' && rest[0] && !rest[0].startsWith('--')) positional = rest.shift();
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
      case 'inbox':
      case 'decide': {
        const database = await openDatabase(cfg);
        try {
          const user = personOf(await authenticateCli(database.db, cfg));
          const requests = new RequestsClient(client, database.db, {
            taskQueue: cfg.TEMPORAL_TASK_QUEUE,
          });
          const org = need(a.org, 'org');
          if (command === 'inbox') print(await requests.listInbox({ orgId: org, userId: user }));
          else
            print(
              await requests.answerRequest(cliAnswer(need(positional, 'REQUEST_ID'), org, user, a)),
            );
        } finally {
          await database.close();
        }
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
        const database = await openDatabase(cfg);
        let user: string;
        try {
          user = personOf(await authenticateCli(database.db, cfg));
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
      case 'keys issue':
      case 'keys revoke':
      case 'agents register': {
        const database = await openDatabase(cfg);
        try {
          const org = need(a.org, 'org');
          const admin = await requireAdmin(database.db, org);
          if (command === 'keys issue') {
            if ((a.user === undefined) === (a.agent === undefined))
              throw new InvalidRequestError('Give exactly one of --user or --agent', [
                { path: 'user', message: 'one of --user, --agent' },
              ]);
            if (a.user !== undefined && (await rolesInOrg(database.db, org, a.user)).length === 0)
              throw new InvalidRequestError(`User ${a.user} has no role in org ${org}`, [
                { path: 'user', message: 'not a member of the org' },
              ]);
            if (a.agent !== undefined && !(await getAgentIdentity(database.db, org, a.agent)))
              throw new InvalidRequestError(`Agent ${a.agent} is not registered in org ${org}`, [
                { path: 'agent', message: 'unknown agent' },
              ]);
            const issued = await issueApiKey(
              database.db,
              a.user !== undefined
                ? { kind: 'user', userId: a.user }
                : { kind: 'agent', orgId: org, agentId: a.agent as string },
              { issuedBy: admin, ttlDays: a.days, label: a.label },
            );
            print({ ...issued, note: 'The key is shown once; store it in a file (mode 0600).' });
          } else if (command === 'keys revoke') {
            const keyId = need(a['key-id'], 'key-id');
            const owner = await apiKeyOwner(database.db, keyId);
            const inOrg =
              owner &&
              (owner.agentOrgId === org ||
                (owner.userId !== null &&
                  (await rolesInOrg(database.db, org, owner.userId)).length > 0));
            if (!inOrg)
              throw new InvalidRequestError(`No key ${keyId} of a member of org ${org}`, [
                { path: 'key-id', message: 'unknown key in this org' },
              ]);
            print({ keyId, revoked: await revokeApiKey(database.db, keyId, admin) });
          } else {
            const allowed = need(a.allow, 'allow')
              .split(',')
              .map((k) => k.trim())
              .filter(Boolean);
            const unknown = allowed.filter((k) => !(WRITE_KINDS as string[]).includes(k));
            if (unknown.length > 0)
              throw new InvalidRequestError(`Unknown write kinds: ${unknown.join(', ')}`, [
                { path: 'allow', message: `known: ${WRITE_KINDS.join(', ')}` },
              ]);
            const operator = need(a.operator, 'operator');
            if ((await rolesInOrg(database.db, org, operator)).length === 0)
              throw new InvalidRequestError(`Operator ${operator} has no role in org ${org}`, [
                { path: 'operator', message: 'not a member of the org' },
              ]);
            await upsertAgentIdentity(database.db, {
              orgId: org,
              agentId: need(a.agent, 'agent'),
              operatorUserId: operator,
              allowedWorkflows: allowed,
            });
            print({
              orgId: org,
              agentId: a.agent,
              operatorUserId: operator,
              allowedWorkflows: allowed,
            });
          }
        } finally {
          await database.close();
        }
        return;
      }
      case 'gateway submit':
      case 'gateway approve':
      case 'gateway reject':
      case 'gateway resume':
      case 'gateway changes':
      case 'gateway trial-balance': {
        const database = await openDatabase(cfg);
        try {
          const gateway = new GatewayClient(client, database.db, cfg.TEMPORAL_TASK_QUEUE);
          if (command === 'gateway submit') {
            const principal = await authenticateCli(database.db, cfg);
            const file = JSON.parse(readFileSync(need(a.file, 'file'), 'utf8')) as {
              orgId: string;
              idempotencyKey: string;
              submitter?: { kind?: string; userId?: string; agentType?: string };
            };
            // The submitter is the key's holder; a file naming someone else is refused.
            const submitter =
              principal.kind === 'user'
                ? { kind: 'user' as const, userId: principal.userId }
                : {
                    kind: 'agent' as const,
                    agentType: principal.agentId,
                    instanceId: `cli:${principal.keyId}`,
                    operatorUserId: principal.operatorUserId,
                  };
            const named = file.submitter;
            if (
              named &&
              (named.kind !== submitter.kind ||
                (submitter.kind === 'user' && named.userId !== submitter.userId) ||
                (submitter.kind === 'agent' && named.agentType !== submitter.agentType))
            )
              throw new AuthenticationError(
                'The file names another submitter than the holder of CS_API_KEY',
              );
            const write = { ...file, submitter: { ...(named ?? {}), ...submitter } };
            if (a['dry-run'] === 'true')
              return print(await gateway.submit(write, { dryRun: true }));
            const started = await gateway.submit(write);
            print({ ...started, state: await gateway.settle(write.orgId, write.idempotencyKey) });
          } else if (command === 'gateway approve' || command === 'gateway reject') {
            const user = personOf(await authenticateCli(database.db, cfg));
            const org = need(a.org, 'org');
            const k = need(a.key, 'key');
            print(
              command === 'gateway approve'
                ? await gateway.approve(org, k, user, a.note)
                : await gateway.reject(org, k, user, need(a.note, 'note')),
            );
          } else if (command === 'gateway resume') {
            const org = need(a.org, 'org');
            const operator = await requireAdmin(database.db, org);
            print(
              await gateway.resume(org, need(a.key, 'key'), {
                operator,
                ...(a.note ? { note: a.note } : {}),
              }),
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
