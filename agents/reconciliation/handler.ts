import { z } from 'zod';
import type { AgentContext, HandlerResult } from '../../workflows/agent-runs/context';
import {
  STATEMENT_FEED_ID,
  STATEMENT_LINES_PAGE,
  type StoredBankLine,
  type ToolInput,
} from '../../workflows/agent-runs/tools';
import {
  DEFAULT_MATCH_POLICY,
  NONE,
  addDays,
  applyAnswers,
  candidateOfToken,
  candidateToken,
  reconcile,
  type AskCandidate,
  type MatchPolicy,
} from './match';

/**
 * The reconciliation agent (code mode, one run per org at a time). On
 * `connector.statement_imported` it finds the org's bank account of the statement (unknown →
 * one configuration request, nothing stored), stores the statement's lines as bank lines (once
 * per externalId), and decides each line still pending (match.ts): a posted entry it matches
 * (`bank_line.match`), an open bill it pays (`bill.settle`), a question for a person (ONE
 * request per run, the lines with their candidates), or nothing — those lines are handed to the
 * bank transaction processor as `bank.lines_unreconciled`, with the bank's ledger account to
 * credit. On its request's `request.completed` it applies the answers (an offered id or `none`
 * per line). Customer invoices have no table: money in is matched only to posted entries.
 */
export const STATEMENT_EVENT = 'connector.statement_imported';
export const UNRECONCILED_EVENT = 'bank.lines_unreconciled';

/** The parts of the intake's Statement payload the agent reads (activities/intake/statement.ts). */
const StatementLine = z.object({
  bookingDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  amountMinor: z.string().regex(/^(0|-?[1-9][0-9]{0,17})$/),
  currency: z.string().regex(/^[A-Z]{3}$/),
  counterpartyName: z.string().nullable(),
  counterpartyAccount: z.string().nullable(),
  description: z.string(),
  reference: z.string().nullable(),
  externalId: z.string().min(1).max(200),
});
const StatementImported = z.object({
  connectorId: z.string().min(1),
  file: z.object({ name: z.string(), sha256: z.string() }),
  statement: z.object({
    statementId: z.string().nullable(),
    account: z.object({
      iban: z.string().nullable(),
      number: z.string().nullable(),
      currency: z.string().regex(/^[A-Z]{3}$/),
    }),
    lines: z.array(StatementLine),
  }),
});
type Statement = z.infer<typeof StatementImported>['statement'];

const Callback = z.object({
  requestCallback: z.literal(true),
  requestId: z.string().min(1),
  requestType: z.string(),
  createdByAgentType: z.string().nullable(),
  answer: z.record(z.string(), z.unknown()).nullable(),
  answeredBy: z.string().nullable(),
});

const SettingsSchema = z.object({
  entry_window_days: z.number().int().min(0).max(60).default(DEFAULT_MATCH_POLICY.entryWindowDays),
  bill_days_before: z.number().int().min(0).max(60).default(DEFAULT_MATCH_POLICY.billDaysBefore),
  bill_days_after_due: z
    .number()
    .int()
    .min(0)
    .max(365)
    .default(DEFAULT_MATCH_POLICY.billDaysAfterDue),
  items_per_field: z.number().int().min(1).max(200).default(100),
  /** Lines asked in one request at most (the rest stay pending for the next delivery). */
  max_asked: z.number().int().min(1).max(5000).default(1000),
  request_due_days: z.number().int().min(1).max(90).default(7),
  /** Lines per bank.lines_unreconciled event (the bank processor takes at most 10,000). */
  hand_on_batch: z.number().int().min(1).max(10_000).default(5000),
});
type Settings = z.infer<typeof SettingsSchema>;

function formatMinor(minor: string): string {
  const neg = minor.startsWith('-');
  const digits = (neg ? minor.slice(1) : minor).padStart(3, '0');
  return `${neg ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}
const lineLabel = (l: StoredBankLine) =>
  [
    l.bookedOn,
    `${formatMinor(l.amountMinor)} ${l.currency}`,
    l.counterpartyName,
    l.reference,
    l.description,
  ]
    .filter((x) => x)
    .join(' · ')
    .slice(0, 300);

type RecordInput = ToolInput<'reconciliation_record'>['lines'][number];

async function record(ctx: AgentContext, lines: RecordInput[]): Promise<void> {
  for (let i = 0; i < lines.length; i += STATEMENT_LINES_PAGE)
    await ctx.tool('reconciliation_record', { lines: lines.slice(i, i + STATEMENT_LINES_PAGE) });
}

/** Submits one write per decided line; returns the lines whose write the gateway took. */
async function submitAll(
  ctx: AgentContext,
  writes: { line: StoredBankLine; kind: 'bank_line.match' | 'bill.settle'; id: string }[],
): Promise<{ done: RecordInput[]; refused: { line: StoredBankLine; detail: string }[] }> {
  const done: RecordInput[] = [];
  const refused: { line: StoredBankLine; detail: string }[] = [];
  for (const w of writes) {
    const r = await ctx.tool('submit', {
      kind: w.kind,
      payload:
        w.kind === 'bill.settle'
          ? { billId: w.id, bankLineId: w.line.id }
          : { bankLineId: w.line.id, entryId: w.id },
    });
    if (r.status === 'started')
      done.push({
        bankLineId: w.line.id,
        status: w.kind === 'bill.settle' ? 'settled' : 'matched',
        submissionId: r.submissionId,
      });
    else refused.push({ line: w.line, detail: r.detail ?? 'refused' });
  }
  return { done, refused };
}

/** Hands lines to the bank transaction processor, with the bank's ledger account to credit. */
async function handOn(
  ctx: AgentContext,
  s: Settings,
  lines: StoredBankLine[],
  ledgerAccountId: string,
  batchId: string,
): Promise<{ handed: RecordInput[]; notEmitted: number }> {
  const handed: RecordInput[] = [];
  let notEmitted = 0;
  const byAccount = new Map<string, StoredBankLine[]>();
  for (const l of lines)
    if (l.amountMinor !== '0')
      byAccount.set(l.bankAccountId, [...(byAccount.get(l.bankAccountId) ?? []), l]);
  for (const [bankAccountId, all] of byAccount)
    for (let i = 0; i < all.length; i += s.hand_on_batch) {
      const part = all.slice(i, i + s.hand_on_batch);
      const r = await ctx.tool('emit_event', {
        type: UNRECONCILED_EVENT,
        payload: {
          feedId: STATEMENT_FEED_ID,
          batchId: `${batchId}#${i / s.hand_on_batch + 1}`.slice(0, 200),
          currency: part[0]!.currency,
          bankAccountId,
          creditAccountId: ledgerAccountId,
          lines: part.map((l) => ({
            id: l.id,
            date: l.bookedOn,
            // The bank processor's sign: spending positive (money out of the bank).
            amountMinor: l.amountMinor.startsWith('-')
              ? l.amountMinor.slice(1)
              : `-${l.amountMinor}`,
            merchant:
              (l.counterpartyName || l.description || l.reference || 'unknown')
                .trim()
                .slice(0, 300) || 'unknown',
            card: null,
            taxCode: null,
          })),
        },
      });
      if (r.status === 'refused') {
        notEmitted += part.length;
        await ctx.log(`${part.length} line(s) not handed on: ${r.detail ?? 'refused'}`);
      } else handed.push(...part.map((l) => ({ bankLineId: l.id, status: 'handed_on' as const })));
    }
  return { handed, notEmitted };
}

async function onStatement(ctx: AgentContext, s: Settings): Promise<HandlerResult> {
  const parsed = StatementImported.safeParse(ctx.trigger.payload);
  if (!parsed.success)
    return {
      status: 'failed',
      summary: `statement payload invalid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    };
  const { statement: st, file } = parsed.data;
  const statementRef = (st.statementId ?? `${file.name}#${file.sha256.slice(0, 12)}`).slice(0, 150);
  const number = st.account.iban ?? st.account.number ?? '(none)';

  const resolved = await ctx.tool('bank_account_resolve', {
    iban: st.account.iban,
    number: st.account.number,
    currency: st.account.currency,
  });
  if (!resolved.bankAccount) return askForAccount(ctx, s, st, statementRef, resolved.reason ?? '');
  const account = resolved.bankAccount;

  // Store every line (once per externalId); the ones still pending are this run's work.
  const pending: StoredBankLine[] = [];
  let stored = 0;
  for (let i = 0; i < st.lines.length; i += STATEMENT_LINES_PAGE) {
    const r = await ctx.tool('bank_statement_store', {
      bankAccountId: account.id,
      lines: st.lines.slice(i, i + STATEMENT_LINES_PAGE).map((l) => ({
        externalId: l.externalId,
        bookedOn: l.bookingDate,
        amountMinor: l.amountMinor,
        currency: l.currency,
        description: l.description.slice(0, 2000),
        reference: l.reference?.slice(0, 500) ?? null,
        counterpartyName: l.counterpartyName?.slice(0, 500) ?? null,
        counterpartyAccount: l.counterpartyAccount?.slice(0, 100) ?? null,
      })),
    });
    stored += r.stored;
    pending.push(...r.pending);
  }
  await ctx.log(
    `statement ${statementRef} of ${number}: ${st.lines.length} line(s), ${stored} new, ${pending.length} to reconcile`,
  );
  const counts = {
    lines: st.lines.length,
    stored,
    pending: pending.length,
    matched: 0,
    settled: 0,
    asked: 0,
    handedOn: 0,
    left: 0,
  };
  if (pending.length === 0)
    return {
      status: 'succeeded',
      summary: `statement ${statementRef}: nothing left to reconcile`,
      data: { statementRef, bankAccountId: account.id, ...counts, requestId: null },
    };

  const policy: MatchPolicy = {
    entryWindowDays: s.entry_window_days,
    billDaysBefore: s.bill_days_before,
    billDaysAfterDue: s.bill_days_after_due,
  };
  const dates = pending.map((l) => l.bookedOn).sort();
  const reach = Math.max(policy.entryWindowDays, policy.billDaysBefore, policy.billDaysAfterDue);
  const c = await ctx.tool('reconciliation_context', {
    bankAccountId: account.id,
    from: addDays(dates[0]!, -reach),
    to: addDays(dates[dates.length - 1]!, reach),
  });
  const decisions = reconcile(pending, c.entries, c.bills, policy);
  const byId = new Map(pending.map((l) => [l.id, l]));

  const writes: { line: StoredBankLine; kind: 'bank_line.match' | 'bill.settle'; id: string }[] =
    [];
  const ask: { line: StoredBankLine; reason: string; candidates: AskCandidate[] }[] = [];
  const none: StoredBankLine[] = [];
  for (const d of decisions) {
    const line = byId.get(d.lineId)!;
    if (d.kind === 'match_entry') writes.push({ line, kind: 'bank_line.match', id: d.entryId });
    else if (d.kind === 'settle_bill') writes.push({ line, kind: 'bill.settle', id: d.billId });
    else if (d.kind === 'ask') ask.push({ line, reason: d.reason, candidates: d.candidates });
    else none.push(line);
  }
  const { done, refused } = await submitAll(ctx, writes);
  await record(ctx, done);
  for (const r of refused)
    await ctx.log(`line ${r.line.id}: write refused, left pending`, { detail: r.detail });
  counts.matched = done.filter((d) => d.status === 'matched').length;
  counts.settled = done.filter((d) => d.status === 'settled').length;
  counts.left = refused.length;

  const { handed, notEmitted } = await handOn(
    ctx,
    s,
    none,
    c.ledgerAccountId,
    `${account.id}:${statementRef}`,
  );
  await record(ctx, handed);
  counts.handedOn = handed.length;
  // Not handed on: refused by the emit path, or zero-amount lines (nothing to classify).
  counts.left += none.length - handed.length;
  if (notEmitted > 0) await ctx.log(`${notEmitted} line(s) could not be handed on`);

  let requestId: string | null = null;
  if (ask.length > 0) {
    const asking = ask.slice(0, s.max_asked);
    counts.left += ask.length - asking.length;
    requestId = await askAboutLines(ctx, s, asking, statementRef, number);
    await record(
      ctx,
      asking.map((a) => ({
        bankLineId: a.line.id,
        status: 'asked' as const,
        requestId: requestId!,
        candidates: a.candidates.map(candidateToken),
      })),
    );
    counts.asked = asking.length;
  }
  const summary = `statement ${statementRef}: ${counts.matched} matched to entries, ${counts.settled} bill(s) settled, ${counts.asked} asked, ${counts.handedOn} handed to the bank transaction processor${counts.left > 0 ? `, ${counts.left} left pending` : ''}`;
  // The last step under the run's slot: the next statement of the org starts after it.
  await ctx.log(summary, counts);
  return {
    status: requestId ? 'waiting_human' : 'succeeded',
    summary,
    data: { statementRef, bankAccountId: account.id, ...counts, requestId },
  };
}

/** The statement's account is not the org's: one configuration request, nothing stored. */
async function askForAccount(
  ctx: AgentContext,
  s: Settings,
  st: Statement,
  statementRef: string,
  reason: string,
): Promise<HandlerResult> {
  const number = st.account.iban ?? st.account.number ?? '(none)';
  const req = await ctx.request({
    type: 'configuration',
    title: `Unknown bank account ${number} (${st.account.currency})`.slice(0, 300),
    question:
      `Statement ${statementRef} is for the bank account ${number} in ${st.account.currency}, which is not a bank account of this organization that reconciliation can use: ${reason}. ` +
      'Nothing of it was stored or posted. Add the account (bank_account.create, mapped to its ledger account) or tell us it is not yours; the connector delivers the statement again once it is configured.',
    answerSchema: {
      fields: [
        {
          name: 'decision',
          label: 'What was done',
          kind: 'enum',
          options: ['account_added', 'not_our_account'],
        },
        { name: 'note', label: 'Note', kind: 'text', required: false },
      ],
    },
    evidence: {
      statementRef,
      iban: st.account.iban,
      number: st.account.number,
      currency: st.account.currency,
      lines: st.lines.length,
      reason,
    },
    dueInDays: s.request_due_days,
    expiresInDays: Math.max(s.request_due_days + 1, 30),
    dedupKey: `recon-account:${number}:${st.account.currency}`.slice(0, 200),
  });
  return {
    status: 'waiting_human',
    summary: `statement ${statementRef}: bank account ${number} unknown (${reason}); asked in ${req.requestId}`,
    data: {
      statementRef,
      bankAccountId: null,
      unknownAccount: number,
      lines: st.lines.length,
      stored: 0,
      requestId: req.requestId,
    },
  };
}

/** ONE request for the run: per line, which of its candidates it is, or none. */
async function askAboutLines(
  ctx: AgentContext,
  s: Settings,
  ask: { line: StoredBankLine; reason: string; candidates: AskCandidate[] }[],
  statementRef: string,
  number: string,
): Promise<string> {
  const codes = [...new Set([...ask.flatMap((a) => a.candidates.map((c) => c.id)), NONE])];
  const fields = [];
  for (let i = 0; i < ask.length; i += s.items_per_field)
    fields.push({
      kind: 'code_per_item' as const,
      name: `lines_${fields.length + 1}`,
      label: `Bill or entry for lines ${i + 1}–${Math.min(ask.length, i + s.items_per_field)} (or none)`,
      items: ask.slice(i, i + s.items_per_field).map((a) => ({
        id: a.line.id,
        label:
          `${lineLabel(a.line)} — ${a.reason}; candidates: ${a.candidates.map((c) => `${c.id} = ${c.label}`).join('; ')}`.slice(
            0,
            500,
          ),
      })),
      codes: codes.slice(0, 2000),
    });
  const req = await ctx.request({
    type: 'verification',
    title: `Reconcile ${ask.length} bank line(s) of ${statementRef}`.slice(0, 300),
    question:
      `These ${ask.length} line(s) of statement ${statementRef} (${number}) could not be matched automatically: several candidates, only the amount matching, or a partial payment. ` +
      `For each line answer the id of the bill it pays (settled through the gateway) or of the entry it is, or "${NONE}" (it goes to the bank transaction processor). ` +
      'A partial payment cannot settle a bill: answer none and record it by hand.',
    answerSchema: { fields },
    evidence: {
      statementRef,
      lines: ask.map((a) => ({
        id: a.line.id,
        line: lineLabel(a.line),
        reason: a.reason,
        candidates: a.candidates,
      })),
    },
    dueInDays: s.request_due_days,
    expiresInDays: Math.max(s.request_due_days + 1, 30),
  });
  return req.requestId;
}

async function onAnswer(ctx: AgentContext, s: Settings): Promise<HandlerResult> {
  const cb = Callback.safeParse(ctx.trigger.payload);
  if (!cb.success)
    return { status: 'failed', summary: 'request.completed payload is not a request callback' };
  if (cb.data.createdByAgentType !== ctx.agentType)
    return { status: 'succeeded', summary: `request ${cb.data.requestId} is not ours` };
  const { requestId, answer, answeredBy } = cb.data;
  if (cb.data.requestType === 'configuration')
    return {
      status: 'succeeded',
      summary: `bank account request ${requestId} answered by ${answeredBy ?? '?'}: the statement is reconciled when its connector delivers it again`,
      data: { requestId, answer },
    };
  const asked = await ctx.tool('reconciliation_asked', { requestId });
  if (asked.lines.length === 0)
    return { status: 'succeeded', summary: `request ${requestId}: no line waiting (applied)` };
  if (!answer)
    return {
      status: 'needs_human',
      summary: `request ${requestId} closed without an answer; ${asked.lines.length} line(s) stay asked`,
    };
  const codeOf = new Map<string, string>();
  for (const v of Object.values(answer))
    if (v && typeof v === 'object')
      for (const [k, code] of Object.entries(v as Record<string, unknown>))
        if (typeof code === 'string') codeOf.set(k, code.trim());
  const actions = applyAnswers(
    asked.lines.map((l) => ({
      id: l.id,
      candidates: l.candidates.flatMap((t) => {
        const c = candidateOfToken(t);
        return c ? [c] : [];
      }),
    })),
    codeOf,
  );
  const byId = new Map(asked.lines.map((l) => [l.id, l]));
  const writes: { line: StoredBankLine; kind: 'bank_line.match' | 'bill.settle'; id: string }[] =
    [];
  const none: StoredBankLine[] = [];
  const invalid: { lineId: string; reason: string }[] = [];
  for (const a of actions) {
    const line = byId.get(a.lineId)!;
    if (a.kind === 'settle_bill') writes.push({ line, kind: 'bill.settle', id: a.billId });
    else if (a.kind === 'match_entry')
      writes.push({ line, kind: 'bank_line.match', id: a.entryId });
    else if (a.kind === 'hand_on') none.push(line);
    else invalid.push({ lineId: a.lineId, reason: a.reason });
  }
  const { done, refused } = await submitAll(ctx, writes);
  await record(ctx, done);
  const ledgerOf = new Map(asked.accounts.map((a) => [a.bankAccountId, a.ledgerAccountId]));
  const handed: RecordInput[] = [];
  for (const [bankAccountId, ledgerAccountId] of ledgerOf) {
    const r = await handOn(
      ctx,
      s,
      none.filter((l) => l.bankAccountId === bankAccountId),
      ledgerAccountId,
      `${bankAccountId}:${requestId}`,
    );
    handed.push(...r.handed);
  }
  await record(ctx, handed);
  for (const r of refused) invalid.push({ lineId: r.line.id, reason: `gateway: ${r.detail}` });
  if (invalid.length > 0) await ctx.log(`${invalid.length} answer(s) not applied`, { invalid });
  return {
    status: 'succeeded',
    summary: `request ${requestId}: ${done.filter((d) => d.status === 'settled').length} bill(s) settled, ${done.filter((d) => d.status === 'matched').length} matched, ${handed.length} handed on${invalid.length > 0 ? `; ${invalid.length} not applied (still asked)` : ''}`,
    data: {
      requestId,
      settled: done.filter((d) => d.status === 'settled').length,
      matched: done.filter((d) => d.status === 'matched').length,
      handedOn: handed.length,
      invalid,
    },
  };
}

export async function handle(ctx: AgentContext): Promise<HandlerResult> {
  const s = SettingsSchema.parse(ctx.settings);
  if (ctx.trigger.eventType === STATEMENT_EVENT) return onStatement(ctx, s);
  if (ctx.trigger.payload.requestCallback === true) return onAnswer(ctx, s);
  return { status: 'failed', summary: `unexpected trigger ${ctx.trigger.eventType}` };
}
