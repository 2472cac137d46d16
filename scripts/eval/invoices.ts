import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { PDFDict } from 'pdf-lib';
import type { Client } from '@temporalio/client';
import type { Db } from '../../db/connection';
import { ingestFile } from '../../client/documents';
import { EventsClient } from '../../client/events-client';
import { GatewayClient } from '../../client/gateway-client';
import {
  getRunRecord,
  runsOfEvent,
  runsOfOrg,
  setOrgAgentSettings,
} from '../../db/repositories/agent-runs';
import { getRequestRow } from '../../db/repositories/requests';
import { upsertAgentIdentity } from '../../db/repositories/credentials';
import { ensureOrganization } from '../../db/repositories/organizations';
import { gatewayWorkflowId } from '../../workflows/gateway.contract';
import type { BillOutcome } from '../../agents/bill_processor/outcome';
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
import { ensureUser, seedDefaultChart } from '../../activities/gateway/org-bootstrap';

/**
 * `npm run eval -- invoices --dataset DIR --json FILE`: every bill of the folder through the
 * real bill processor on the platform (Temporal + PostgreSQL, the gateway deciding every write).
 *
 * The flow per file, each in a fresh org (default chart; an analyst as the agents' operator;
 * two approvers; both agents registered with their write kinds):
 *   1. the file is ingested as a document and `bill.received` {documentId} is accepted;
 *   2. the bill processor reads and checks it; a bill that fails a check ends `human_review`;
 *   3. its vendor is unknown in a fresh org, so the processor delegates it to master data (a
 *      delegation request with the bill's evidence; the run ends waiting_human); master data
 *      submits `vendor.create` (placeholder email flagged, a review request for it), and the
 *      runtime answers the delegation with the vendor's id when that run completes (only if
 *      the vendor really exists; otherwise the delegation fails and a person takes it);
 *   4. the simulated approvers approve whatever the gateway puts in an approval lane (a new
 *      vendor, a placeholder email, a first posting to an account);
 *   5. the answered delegation's `request.completed` resumes the bill; it is `posted` when its
 *      `bill.post` is applied, `human_review` in every other case (a review request is open).
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
    allowedWorkflows: ['bill.post', 'bill.post_batch', 'bill.credit'],
    by: `${orgId}-${OPERATOR}`,
  });
  await upsertAgentIdentity(db, {
    orgId,
    agentId: 'master_data',
    operatorUserId: `${orgId}-${OPERATOR}`,
    allowedWorkflows: ['vendor.create', 'customer.create'],
    by: `${orgId}-${OPERATOR}`,
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
    for (const run of await runsOfEvent(deps.db, envelope.orgId, accepted.eventId)) {
      const record = await getRunRecord(deps.db, run.orgId, run.id);
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
              ...(await gw.currentPlan(envelope.orgId, key)),
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
  const [run] = await runsOfEvent(deps.db, envelope.orgId, accepted.eventId);
  if (!run) return null;
  const record = (await getRunRecord(deps.db, run.orgId, run.id))!;
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

const TERMINAL = new Set(['completed', 'failed', 'cancelled', 'timeout', 'waiting_human']);

/**
 * Approves, as the simulated approvers, every submission of the org's agent runs that waits
 * in an approval lane (each approver once per plan revision).
 */
async function approvePending(
  deps: InvoicesEvalDeps,
  gw: GatewayClient,
  orgId: string,
  voted: Set<string>,
  trace: string[],
): Promise<void> {
  const prefix = gatewayWorkflowId(orgId, '');
  for (const run of await runsOfOrg(deps.db, orgId)) {
    const record = await getRunRecord(deps.db, run.orgId, run.id);
    for (const s of record?.submissions ?? []) {
      if (s.outcome) continue;
      const key = s.submissionId.slice(prefix.length);
      const view = await gw.state(orgId, key).catch(() => null);
      if (view?.status !== 'awaiting_approval') continue;
      for (const a of APPROVERS) {
        const vote = `${s.submissionId}#${view.revision}#${a}`;
        if (voted.has(vote)) continue;
        voted.add(vote);
        try {
          await gw.decide(orgId, key, {
            decision: 'approve',
            approver: { userId: `${orgId}-${a}`, orgId },
            ...(await gw.currentPlan(orgId, key)),
            note: 'eval reviewer',
          });
          trace.push(`${a} approved ${s.kind} (${view.risk?.lane ?? '?'} lane)`);
        } catch {
          // Enough approvals already, or the submission moved on: nothing to do.
        }
      }
    }
  }
}

/**
 * One bill through the flow above; the item carries what was extracted and what happened.
 * The delegation is a real request (requests: `delegation.master_data`); master data creates
 * the vendor, and when its run completes the runtime answers the delegation with the vendor's
 * id (only once the vendor really exists); the harness only watches the request close.
 */
export async function processBillFile(
  deps: InvoicesEvalDeps,
  orgId: string,
  f: DatasetFile,
  timeoutMs = 120_000,
  opts: { ignoreAttachments?: boolean } = {},
): Promise<EvalItem> {
  if (opts.ignoreAttachments && /\.pdf$/i.test(f.path)) {
    const stripped = await withoutAttachments(f.path);
    try {
      return await processBillFile(deps, orgId, { ...f, path: stripped.path }, timeoutMs);
    } finally {
      stripped.cleanup();
    }
  }
  const started = Date.now();
  const trace: string[] = [];
  const gw = new GatewayClient(deps.client, deps.db, deps.taskQueue, {
    decisionSecret: deps.decisionSecret,
  });
  const events = new EventsClient(deps.client, deps.db, { taskQueue: deps.taskQueue });
  // Document ids are global (documents_pkey): the same file in another org needs its own id.
  const { document } = await ingestFile(deps, {
    orgId,
    path: f.path,
    id: `${orgId}.${f.file}`.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 120),
  });
  const since = new Date();
  await events.acceptEvent({
    orgId,
    type: 'bill.received',
    source: 'connector',
    payload: { documentId: document.id },
  });
  const voted = new Set<string>();
  const answered = new Set<string>();
  let bill: BillOutcome | null = null;
  let lastRun: RunResult | null = null;
  const seen = new Set<string>();
  for (;;) {
    if (Date.now() - started > timeoutMs) {
      trace.push(`timed out after ${timeoutMs} ms`);
      break;
    }
    await new Promise((r) => setTimeout(r, 150));
    await approvePending(deps, gw, orgId, voted, trace);
    const runs = (await runsOfOrg(deps.db, orgId))
      .filter((r) => r.createdAt >= since)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    let finished = false;
    for (const run of runs) {
      if (!TERMINAL.has(run.state)) continue;
      const record = (await getRunRecord(deps.db, run.orgId, run.id))!;
      const result: RunResult = {
        output: record.run.output as RunResult['output'],
        submissions: record.submissions.map((s) => ({
          submissionId: s.submissionId,
          kind: s.kind,
          outcome: s.outcome,
        })),
        state: record.run.state,
        outcome: record.run.outcome,
      };
      if (run.agentType === 'master_data') {
        const md = dataOf(result) as MasterDataOutcome | null;
        if (!seen.has(run.id)) {
          seen.add(run.id);
          trace.push(
            `master_data: ${md?.id ?? run.outcome} ${result.submissions.map((s) => `${s.kind} ${s.outcome}`).join(', ')}${md?.placeholderFields?.length ? `, placeholders: ${md.placeholderFields.join(', ')}` : ''}`,
          );
        }
        // The runtime closes the delegation when the run completes; the harness only watches.
        const d = md?.delegation;
        if (!d || answered.has(d.requestId)) {
          if (run.state !== 'completed') finished = true;
          continue;
        }
        const req = await getRequestRow(deps.db, d.requestId);
        if (!req || req.status === 'open') continue;
        answered.add(d.requestId);
        const a = req.answer as { vendor_id?: string } | null;
        trace.push(
          req.status === 'completed'
            ? `delegation ${d.requestId} answered by ${req.answeredBy}: vendor ${a?.vendor_id}`
            : `delegation ${d.requestId} ${req.status}`,
        );
        if (req.status !== 'completed') finished = true;
      }
      if (run.agentType === 'bill_processor') {
        const b = billOf(result);
        if (!b || seen.has(run.id)) continue;
        seen.add(run.id);
        bill = b;
        lastRun = result;
        trace.push(`bill_processor: ${b.outcome}`);
        if (b.outcome !== 'vendor_unknown') finished = true;
      }
    }
    if (finished) break;
  }
  // A bill posts as bill.post; a credit note (or a negative correction) as bill.credit.
  const post = lastRun?.submissions.find((s) => s.kind === 'bill.post' || s.kind === 'bill.credit');
  const outcome =
    bill?.outcome === 'posted' && post?.outcome === 'applied' ? 'posted' : 'human_review';
  if (post) trace.push(`${post.kind} ${post.outcome}`);
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
  const item = scoreItem(
    f,
    outcome,
    extracted,
    bill?.reasons ?? [lastRun?.outcome ?? 'no run'],
    trace,
    Date.now() - started,
  );
  const st = ex?.structured;
  return {
    ...item,
    source: ex?.source ?? null,
    structured: st
      ? {
          origin: st.origin,
          profile: st.invoice.profile,
          typeCode: st.invoice.typeCode,
          validation: {
            ruleset: st.validation.ruleset,
            status: st.validation.status,
            fatal: st.validation.fatal.map((x) => x.id),
            warnings: st.validation.warnings.length,
            outOfProfile: st.validation.outOfProfile.map((x) => x.id),
          },
          crossCheck: { status: st.crossCheck.status, detail: st.crossCheck.detail },
        }
      : null,
  };
}

/**
 * The same PDF without its embedded files (Factur-X / ZUGFeRD XML): what the visible-text
 * reader alone makes of it. Written beside nothing of the dataset: a private temporary file
 * with the same name, so the document id is the same.
 */
export async function withoutAttachments(
  path: string,
): Promise<{ path: string; cleanup: () => void }> {
  const { PDFDocument, PDFName } = await import('pdf-lib');
  const doc = await PDFDocument.load(readFileSync(path), {
    updateMetadata: false,
    ignoreEncryption: true,
  });
  const names = doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  names?.delete(PDFName.of('EmbeddedFiles'));
  doc.catalog.delete(PDFName.of('AF'));
  const dir = mkdtempSync(join(tmpdir(), 'cs-noattach-'));
  const out = join(dir, basename(path));
  writeFileSync(out, await doc.save({ useObjectStreams: false }));
  return { path: out, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function runInvoicesEval(
  deps: InvoicesEvalDeps & {
    datasetDir: string;
    orgPrefix: string;
    limit?: number;
    /** Strip PDFs' embedded files first: the visible-text reader alone. */
    ignoreAttachments?: boolean;
    onProgress?: (done: number, total: number, file: string) => void;
  },
): Promise<InvoicesReport> {
  const files = loadDataset(deps.datasetDir).slice(0, deps.limit);
  const items: EvalItem[] = [];
  for (const [i, f] of files.entries()) {
    deps.onProgress?.(i, files.length, f.file);
    const orgId = `${deps.orgPrefix}-${i}`;
    await seedBillOrg(deps.db, orgId);
    items.push(
      await processBillFile(deps, orgId, f, 120_000, { ignoreAttachments: deps.ignoreAttachments }),
    );
  }
  deps.onProgress?.(files.length, files.length, 'done');
  return { summary: summarize(items), items };
}
