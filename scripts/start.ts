import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { loadConfig } from '../config/env';
import { ensureOrganization } from '../db/repositories/organizations';
import { connectClient } from '../client/temporal-connection';
import { AnalysisClient } from '../client/analysis-client';
import { ingestFile } from '../client/documents';
import { GatewayClient } from '../client/gateway-client';
import { issueDemoKeyFiles } from '../client/credentials';
import { accountId } from '../db/ledger/default-chart';
import { trialBalance } from '../db/repositories/ledger';
import { formatMoney } from '../client/format/money';
import type { AnalysisRequestInput } from '../workflows/analysis.contract';
import { bringUpPlatform } from './lib/platform';
import { portOpen } from './lib/dev-server';
import { spawnWorkerProcess } from './lib/worker-process';
import { createApiServer } from '../api/server';
import { createLogger } from '../config/logging';
import { PROJECT_ROOT } from './lib/temporal-binaries';
import { runAgentsDemo } from './lib/agents-demo';
import { ensureUser, seedDefaultChart } from '../activities/gateway/org-bootstrap';

/**
 * `npm start`: the platform on embedded defaults plus a sample workload — one request per
 * planner path, one delivered and others waiting for a reviewer — then it keeps running
 * (worker, dev server with Web UI, embedded PostgreSQL) until Ctrl-C. `--exit` stops after
 * the workload (used to check the command end to end).
 */
const DEMO_ORG = 'demo';
const SAMPLES = join(PROJECT_ROOT, 'samples', 'documents');
const SAMPLE_ROOT = join(PROJECT_ROOT, 'samples');

async function main(): Promise<void> {
  const exitAfter = process.argv.includes('--exit');
  const cfg = loadConfig();
  const stops: (() => Promise<void>)[] = [];
  const children: ChildProcess[] = [];
  const shutdown = async (code: number) => {
    for (const child of children.filter((c) => c.exitCode === null)) {
      child.kill('SIGTERM');
      // The worker drains in-flight tasks (grace 20 s); past that it is killed.
      const killer = setTimeout(() => child.kill('SIGKILL'), 25_000);
      await new Promise((r) => child.once('exit', r));
      clearTimeout(killer);
    }
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  // 0. Before starting anything: is our own port free? A second `npm start` stops here,
  // naming what is in the way, instead of reusing the first one's servers and dying later.
  if (await portOpen('127.0.0.1', cfg.API_PORT)) {
    console.error(
      `Port ${cfg.API_PORT} (the HTTP API) is already in use — probably another \`npm start\`. ` +
        `Stop it (Ctrl-C in its terminal) or set API_PORT to a free port. Nothing was started.`,
    );
    process.exit(1);
  }

  // 1–2. Temporal dev server and the database (embedded unless DATABASE_URL is set), migrated.
  // Each service registers its stop as soon as it is up, so Ctrl-C during start-up stops it.
  // The Web UI shows encrypted history through this process's API (/codec/decode): an owner or
  // admin signs in at /inbox, then ticks "include cross-origin credentials" in the UI's codec
  // settings. (A dev server that was already running keeps the endpoint it was started with.)
  const uiCodecEndpoint = `http://127.0.0.1:${cfg.API_PORT}/codec`;
  const platform = await bringUpPlatform({ poolSize: 2, stops, uiCodecEndpoint });
  platform.log.forEach((l) => console.log(l));
  const { database, databaseUrl } = platform;
  const uiUrl = platform.uiUrl ?? '(your cluster’s Web UI)';
  await ensureOrganization(database.db, { id: DEMO_ORG, name: 'Demo Org' });
  await ensureUser(database.db, {
    id: 'demo-reviewer',
    email: 'reviewer@demo.example',
    displayName: 'Demo Reviewer',
    orgId: DEMO_ORG,
    roles: ['reviewer'],
  });
  // The demo's admin: reads the org's encrypted history in the Web UI through /codec.
  await ensureUser(database.db, {
    id: 'demo-admin',
    email: 'admin@demo.example',
    displayName: 'Demo Admin',
    orgId: DEMO_ORG,
    roles: ['admin'],
  });

  // 3. The worker, as its own process, like in production.
  const worker = spawnWorkerProcess({
    // The workload's tables are this command's output: the worker logs warnings and up.
    env: {
      LOG_LEVEL: 'WARN',
      ...process.env,
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: cfg.TEMPORAL_ADDRESS,
      TEMPORAL_NAMESPACE: cfg.TEMPORAL_NAMESPACE,
      // One process serves every domain: the workload below needs all five. It also finishes
      // runs a .data from before the split into domains left on the bare base queue.
      WORKER_DOMAINS: '',
      WORKER_DRAIN_BASE_QUEUE: '1',
    },
  });
  children.push(worker);
  worker.once('exit', (code) => {
    if (code !== 0 && code !== null) console.error(`worker exited with code ${code}`);
  });

  // 4. Sample workload.
  const client = await connectClient(cfg, database.db);
  // The HTTP surface, on the same client and database.
  // Like the worker, it logs warnings and up here (JSON lines); `npm run api` logs every request.
  const api = createApiServer({
    db: database.db,
    client,
    taskQueue: cfg.TEMPORAL_TASK_QUEUE,
    logger: createLogger('WARN', cfg.LOG_FORMAT, 'api'),
    trustProxy: cfg.TRUST_PROXY === '1',
  });
  await new Promise<void>((resolve, reject) => {
    api.once('error', reject);
    api.listen(cfg.API_PORT, '127.0.0.1', () => resolve());
  });
  stops.push(() => new Promise<void>((resolve) => api.close(() => resolve())));
  const analysis = new AnalysisClient(client, cfg.TEMPORAL_TASK_QUEUE);
  const deps = { db: database.db, client, taskQueue: cfg.TEMPORAL_TASK_QUEUE };
  for (const [file, docType] of [
    ['northwind-2024-10k.txt', '10-K'],
    ['harbor-bank-2024-pillar3.html', 'Pillar 3'],
  ] as const) {
    const { document, ingestion } = await ingestFile(deps, {
      orgId: DEMO_ORG,
      path: join(SAMPLES, file),
      docType,
    });
    console.log(`ingested ${document.id}: ${ingestion.pageCount} pages`);
  }
  const run = `${Date.now()}`;
  const requests: AnalysisRequestInput[] = [
    {
      requestId: `extraction-${run}`,
      orgId: DEMO_ORG,
      docIds: ['northwind-2024-10k'],
      queryType: 'extract_metric',
      queryText: 'What is the FY2024 net sales (in USD millions)?',
    },
    {
      requestId: `derived-${run}`,
      orgId: DEMO_ORG,
      docIds: ['northwind-2024-10k'],
      queryType: 'extract_metric',
      queryText: 'What is the FY2024 gross margin? Answer in percent rounded to one decimal place.',
    },
    {
      requestId: `chain-${run}`,
      orgId: DEMO_ORG,
      docIds: ['northwind-2024-10k'],
      queryType: 'summarize',
      queryText: 'Summarise liquidity and any control weaknesses',
      analyticalStepsDefined: true,
      analyticalSteps: [
        {
          tool: 'retrieve_context',
          purpose: 'Find the liquidity discussion',
          params: { query: 'liquidity capital resources' },
        },
        {
          tool: 'flag_disclosure',
          purpose: 'Material weakness or going concern?',
          params: { topics: ['material_weakness', 'going_concern'] },
        },
      ],
    },
    {
      requestId: `compliance-${run}`,
      orgId: DEMO_ORG,
      docIds: ['harbor-bank-2024-pillar3'],
      queryType: 'compliance_assessment',
      queryText: 'Does Harbor Community Bank meet the Basel III minima and buffers?',
      framework: 'basel_iii',
    },
    {
      requestId: `risk-${run}`,
      orgId: DEMO_ORG,
      docIds: ['northwind-2024-10k'],
      queryType: 'risk_flag',
      queryText: 'Flag going concern, restatement, litigation and liquidity risks',
    },
  ];
  console.log(
    '\nrequest                     path         outcome           confidence  answer / reason',
  );
  for (const r of requests) {
    await analysis.start(r);
    const view = await analysis.settle(DEMO_ORG, r.requestId, 120_000);
    const answer = view.result?.answer?.text ?? view.proposedAnswer?.text ?? '';
    const outcome = view.status === 'completed' ? (view.result?.outcome ?? '') : 'awaiting review';
    const detail =
      view.status === 'completed' ? answer.split('\n')[0] : (view.validation?.reasons[0] ?? '');
    console.log(
      `${r.requestId.padEnd(28)}${(view.path ?? '').padEnd(13)}${outcome.padEnd(18)}${(view.validation?.minConfidence ?? 0).toFixed(2).padEnd(12)}${detail}`,
    );
  }

  // 5. The write gateway: the same door for agents and people, in front of the ledger.
  await seedDefaultChart(database.db, DEMO_ORG);
  for (const [id, roles] of [
    ['demo-owner', ['owner']],
    ['demo-clerk', ['analyst']],
    ['demo-approver-1', ['approver']],
    ['demo-approver-2', ['approver']],
  ] as const) {
    await ensureUser(database.db, {
      id,
      email: `${id}@demo.example`,
      displayName: id,
      orgId: DEMO_ORG,
      roles: [...roles],
    });
  }
  const gateway = new GatewayClient(client, database.db, cfg.TEMPORAL_TASK_QUEUE);
  const post = (key: string, amountMinor: string, memo: string) => ({
    orgId: DEMO_ORG,
    idempotencyKey: `${key}-${run}`,
    submitter: { kind: 'user' as const, userId: 'demo-clerk' },
    source: { type: 'document' as const, id: 'northwind-2024-10k' },
    kind: 'journal.post' as const,
    payload: {
      entryDate: '2026-11-30',
      memo,
      lines: [
        { accountId: accountId(DEMO_ORG, '6200'), currency: 'USD', debit: amountMinor },
        { accountId: accountId(DEMO_ORG, '1010'), currency: 'USD', credit: amountMinor },
      ],
    },
  });
  const writes = [
    post('supplies-first', '12500', 'Office supplies (first posting to these accounts)'),
    post('supplies-again', '4200', 'Office supplies'),
    post('equipment', '7500000', 'Large purchase booked to supplies'),
  ];
  console.log(
    '\nwrite                         lane       rules fired                                  outcome',
  );
  for (const w of writes) {
    await gateway.submit(w);
    let view = await gateway.settle(DEMO_ORG, w.idempotencyKey);
    // The first posting needs one approval: an approver who is not the submitter signs it.
    if (view.status === 'awaiting_approval' && view.risk?.lane === 'moderate') {
      await gateway.decide(DEMO_ORG, w.idempotencyKey, {
        decision: 'approve',
        approver: { userId: 'demo-approver-1', orgId: DEMO_ORG },
        ...(await gateway.currentPlan(DEMO_ORG, w.idempotencyKey)),
      });
      view = await gateway.settle(DEMO_ORG, w.idempotencyKey);
      for (let i = 0; i < 100 && view.status !== 'completed'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        view = await gateway.state(DEMO_ORG, w.idempotencyKey);
      }
    }
    const outcome =
      view.status === 'completed'
        ? (view.result?.outcome ?? '')
        : `awaiting ${view.risk?.requiredApprovals ?? 0} approvals`;
    console.log(
      `${w.idempotencyKey.padEnd(30)}${(view.risk?.lane ?? '').padEnd(11)}${(view.risk?.rules.map((r) => r.rule).join(', ') ?? '').slice(0, 44).padEnd(45)}${outcome}`,
    );
  }
  const tb = await trialBalance(database.db, DEMO_ORG);
  console.log(
    `trial balance: ${tb.totals.map((t) => `${t.currency} debits ${formatMoney(t.debits, t.currency)} = credits ${formatMoney(t.credits, t.currency)}`).join('; ') || 'empty'}`,
  );

  // 6. The agents: a bank statement and a supplier's e-invoice arrive as events; the
  // reconciliation, bank, bill and master-data agents handle them through the same gateway.
  // Their writes and questions are not approved here: they wait in the inbox.
  const agents = await runAgentsDemo(deps, {
    orgId: DEMO_ORG,
    people: {
      clerk: 'demo-clerk',
      owner: 'demo-owner',
      approvers: ['demo-approver-1', 'demo-approver-2'],
    },
    samplesDir: SAMPLE_ROOT,
  });
  console.log(
    '\nagent run                   trigger                          state             summary',
  );
  for (const r of agents.runs)
    console.log(
      `${r.agent.padEnd(28)}${r.trigger.padEnd(33)}${r.state.padEnd(18)}${r.detail.slice(0, 100)}`,
    );
  console.log(
    `${agents.runs.length} agent runs; ${agents.openRequests} request(s) wait in the inbox` +
      (agents.unsettledEvents ? `; ${agents.unsettledEvents} event(s) still in progress` : ''),
  );
  agents.notes.forEach((n) => console.log(`note: ${n}`));

  // The demo people get issued API keys (shown once: written to files only they should read).
  const keys = await issueDemoKeyFiles(
    database.db,
    ['demo-reviewer', 'demo-clerk', 'demo-approver-1', 'demo-approver-2', 'demo-admin'],
    join(PROJECT_ROOT, '.data', 'keys'),
    DEMO_ORG,
  );
  console.log(`\nTemporal Web UI: ${uiUrl}`);
  console.log(
    `History codec:   ${uiCodecEndpoint}  (history is encrypted: sign in at /inbox with ${keys['demo-admin']}, then tick "include cross-origin credentials" in the UI's codec settings)`,
  );
  console.log(
    `HTTP API:        http://127.0.0.1:${cfg.API_PORT}/v1/orgs/${DEMO_ORG}/trial-balance  (Authorization: Bearer $(cat ${keys['demo-reviewer']}))`,
  );
  console.log(
    `Reviewer inbox:  http://127.0.0.1:${cfg.API_PORT}/inbox  (sign in with the key in ${keys['demo-reviewer']})`,
  );
  console.log(`OpenAPI:         http://127.0.0.1:${cfg.API_PORT}/openapi.json`);
  console.log(`Filter runs:     CsOrg="${DEMO_ORG}" AND CsState="HUMAN_REVIEW"`);
  console.log(
    `Approve one:     CS_API_KEY_FILE=${keys['demo-reviewer']} npm run cli -- review --org ${DEMO_ORG} --request <request id> --decision approve`,
  );
  const waiting = writes.find((w) => w.idempotencyKey.startsWith('equipment-'));
  if (waiting) {
    // A signature names the plan it was shown (revision and hash, from `gateway show`).
    const cli = `CS_API_KEY_FILE=${keys['demo-approver-1']} npm run cli -- gateway`;
    console.log(`See the plan:    ${cli} show --org ${DEMO_ORG} --key ${waiting.idempotencyKey}`);
    console.log(
      `Sign the write:  ${cli} approve --org ${DEMO_ORG} --key ${waiting.idempotencyKey} --revision <n> --plan-hash <hash>   (both as shown; then demo-approver-2)`,
    );
  }
  if (exitAfter) return shutdown(0);
  console.log('\nPlatform running (worker, dev server, database). Ctrl-C to stop.');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
