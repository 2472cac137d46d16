import type { Client } from '@temporalio/client';
import type { Db } from '../../db/connection';
import { ingestFile } from '../../client/documents';
import { EventsClient } from '../../client/events-client';
import { GatewayClient } from '../../client/gateway-client';
import { seedDefaultChart } from '../../db/ledger/default-chart';
import { getRunRecord, runsOfEvent, setOrgAgentSettings } from '../../db/repositories/agent-runs';
import { upsertAgentIdentity } from '../../db/repositories/credentials';
import { ensureOrganization, ensureUser } from '../../db/repositories/organizations';
import { gatewayWorkflowId } from '../../workflows/gateway.contract';
import type { BillOutcome } from '../../agents/bill_processor/handler';
import type { MasterDataOutcome } from '../../agents/master_data/handler';
import {
  FIELDS,
  loadDataset,
  scoreItem,
  summarize,
  type DatasetFile,
  type EvalItem,
  type EvalSummary,
  type Field,
} from './invoices-scoring';

/**
 * `npm run eval -- invoices --dataset DIR --json FILE`: every bill of the folder through the
 * real bill processor on the platform (Temporal + PostgreSQL, the gateway deciding every write).
 *
 * The flow per file, each in a fresh org (default chart; an analyst as the agents' operator;
 * two approvers; both agents registered with their write kinds):
 *   1. the file is ingested as a document and `bill.received` {documentId} is accepted;
 *   2. the bill processor reads and checks it; a bill that fails a check ends `human_review`;
 *   3. its vendor is unknown in a fresh org, so the processor hands the bill's evidence to
 *      master data; the eval delivers that hand-over as a `master_data.vendor_requested` event
 *      (the stand-in for a delegation request), and master data submits `vendor.create`;
 *   4. the simulated approvers approve whatever the gateway puts in an approval lane (a new
 *      vendor, a placeholder email, a first posting to an account);
 *   5. the bill resumes with `bill.received` {documentId, vendorId}; it is `posted` when its
 *      `bill.post` is applied, `human_review` in every other case.
 */
export interface InvoicesEvalDeps {
  db: Db;
  client: Client;
  taskQueue: string;
  /** Defaults to the configured secret (the worker verifies with the same). */
  decisionSecret?: string;
}

export interface InvoicesReport {
  summary: EvalSummary;
  items: EvalItem[];
}

export const APPROVERS = ['approver-1', 'approver-2'] as const;
export const OPERATOR = 'ap-clerk';

/** A fresh org for bills: chart, operator, approvers, the two agents registered. */
export async function seedBillOrg(db: Db, orgId: string): Promise<void> {
  await ensureOrganization(db, { id: orgId, name: `Bills ${orgId}` });
  await seedDefaultChart(db, orgId);
  await ensureUser(db, {
    id: `${orgId}-${OPERATOR}`,
    email: `${OPERATOR}@${orgId}.example`,
    displayName: 'AP clerk',
    orgId,
    roles: ['analyst'],
  });
  for (const a of APPROVERS)
    await ensureUser(db, {
      id: `${orgId}-${a}`,
      email: `${a}@${orgId}.example`,
      displayName: a,
      orgId,
      roles: ['approver'],
    });
  await setOrgAgentSettings(db, { orgId, operatorUserId: `${orgId}-${OPERATOR}` });
  await upsertAgentIdentity(db, {
    orgId,
    agentId: 'bill_processor',
    operatorUserId: `${orgId}-${OPERATOR}`,
    allowedWorkflows: ['bill.post'],
  });
  await upsertAgentIdentity(db, {
    orgId,
    agentId: 'master_data',
    operatorUserId: `${orgId}-${OPERATOR}`,
    allowedWorkflows: ['vendor.create', 'customer.create'],
  });
}

interface RunResult {
  output: { summary: string; data: unknown } | null;
  submissions: { submissionId: string; kind: string; outcome: string | null }[];
  state: string;
  outcome: string | null;
}

/**
 * Accepts an event and drives it to its end: while its runs wait in an approval lane, the
 * simulated approvers approve (each once); returns the first run's record.
 */
export async function driveEvent(
  deps: InvoicesEvalDeps,
  envelope: { orgId: string; type: string; payload: Record<string, unknown> },
  trace: string[],
): Promise<RunResult | null> {
  const events = new EventsClient(deps.client, deps.db, { taskQueue: deps.taskQueue });
  const gw = new GatewayClient(deps.client, deps.db, deps.taskQueue, {
    decisionSecret: deps.decisionSecret,
  });
  const accepted = await events.acceptEvent({ ...envelope, source: 'connector' });
  let finished = false;
  const done = events.result(accepted.workflowId).finally(() => (finished = true));
  const voted = new Set<string>();
  const prefix = gatewayWorkflowId(envelope.orgId, '');
  while (!finished) {
    await Promise.race([done.catch(() => undefined), new Promise((r) => setTimeout(r, 150))]);
    for (const run of await runsOfEvent(deps.db, accepted.eventId)) {
      const record = await getRunRecord(deps.db, run.id);
      for (const s of record?.submissions ?? []) {
        const key = s.submissionId.slice(prefix.length);
        const view = await gw.state(envelope.orgId, key).catch(() => null);
        if (view?.status !== 'awaiting_approval') continue;
        for (const a of APPROVERS) {
          const vote = `${s.submissionId}#${view.revision}#${a}`;
          if (voted.has(vote)) continue;
          voted.add(vote);
          try {
            await gw.decide(envelope.orgId, key, {
              decision: 'approve',
              approver: { userId: `${envelope.orgId}-${a}`, orgId: envelope.orgId },
              note: 'eval reviewer',
            });
            trace.push(`${a} approved ${s.kind} (${view.risk?.lane ?? '?'} lane)`);
          } catch (err) {
            // Enough approvals already, or the submission moved on: nothing to do.
            void err;
          }
        }
      }
    }
  }
  await done;
  const [run] = await runsOfEvent(deps.db, accepted.eventId);
  if (!run) return null;
  const record = (await getRunRecord(deps.db, run.id))!;
  return {
    output: record.run.output as RunResult['output'],
    submissions: record.submissions.map((s) => ({
      submissionId: s.submissionId,
      kind: s.kind,
      outcome: s.outcome,
    })),
    state: record.run.state,
    outcome: record.run.outcome,
  };
}

/** A completed run stores {summary, data}; a run that needs a person stores its data alone. */
const dataOf = (r: RunResult | null): unknown => {
  const o = r?.output as { summary?: unknown; data?: unknown } | null | undefined;
  return o && 'summary' in o && 'data' in o ? o.data : o;
};
const billOf = (r: RunResult | null): BillOutcome | null =>
  ((dataOf(r) as { bills?: BillOutcome[] } | null)?.bills ?? [])[0] ?? null;

/** One bill through the flow above; the item carries what was extracted and what happened. */
export async function processBillFile(
  deps: InvoicesEvalDeps,
  orgId: string,
  f: DatasetFile,
): Promise<EvalItem> {
  const started = Date.now();
  const trace: string[] = [];
  const { document } = await ingestFile(deps, { orgId, path: f.path });
  let run = await driveEvent(
    deps,
    { orgId, type: 'bill.received', payload: { documentId: document.id } },
    trace,
  );
  let bill = billOf(run);
  trace.push(`bill_processor: ${bill?.outcome ?? run?.outcome ?? 'no run'}`);
  if (bill?.outcome === 'vendor_unknown' && bill.delegation) {
    const { name, emails, taxIds, sourceDocumentId } = bill.delegation;
    const md = await driveEvent(
      deps,
      {
        orgId,
        type: 'master_data.vendor_requested',
        payload: { name, emails, taxIds, sourceDocumentId },
      },
      trace,
    );
    const created = dataOf(md) as MasterDataOutcome | undefined;
    const applied = md?.submissions.every((s) => s.outcome === 'applied') ?? false;
    trace.push(
      `master_data: ${created?.id ?? 'none'} ${applied ? 'applied' : (md?.outcome ?? 'no run')}${created?.placeholderFields.length ? `, placeholders: ${created.placeholderFields.join(', ')}` : ''}`,
    );
    if (created?.id && (applied || created.existed)) {
      run = await driveEvent(
        deps,
        {
          orgId,
          type: 'bill.received',
          payload: { documentId: document.id, vendorId: created.id },
        },
        trace,
      );
      bill = billOf(run);
      trace.push(`bill_processor (resumed): ${bill?.outcome ?? run?.outcome ?? 'no run'}`);
    }
  }
  const post = run?.submissions.find((s) => s.kind === 'bill.post');
  const outcome =
    bill?.outcome === 'posted' && post?.outcome === 'applied' ? 'posted' : 'human_review';
  if (post) trace.push(`bill.post ${post.outcome}`);
  const ex = bill?.extraction ?? null;
  const extracted = Object.fromEntries(FIELDS.map((k) => [k, null])) as Record<
    Field,
    string | null
  >;
  if (ex) {
    extracted.issuer = ex.issuer;
    extracted.invoice_number = ex.invoiceNumber;
    extracted.date = ex.issueDate;
    extracted.currency = ex.currency;
    extracted.amount = ex.amount;
    extracted.amount_untaxed = ex.amountUntaxed;
    extracted.amount_tax = ex.amountTax;
  }
  return scoreItem(
    f,
    outcome,
    extracted,
    bill?.reasons ?? [run?.outcome ?? 'no run'],
    trace,
    Date.now() - started,
  );
}

export async function runInvoicesEval(
  deps: InvoicesEvalDeps & {
    datasetDir: string;
    orgPrefix: string;
    limit?: number;
    onProgress?: (done: number, total: number, file: string) => void;
  },
): Promise<InvoicesReport> {
  const files = loadDataset(deps.datasetDir).slice(0, deps.limit);
  const items: EvalItem[] = [];
  for (const [i, f] of files.entries()) {
    deps.onProgress?.(i, files.length, f.file);
    const orgId = `${deps.orgPrefix}-${i}`;
    await seedBillOrg(deps.db, orgId);
    items.push(await processBillFile(deps, orgId, f));
  }
  deps.onProgress?.(files.length, files.length, 'done');
  return { summary: summarize(items), items };
}
