import { z } from 'zod';
import type { AgentContext, HandlerResult } from '../../workflows/agent-runs/context';
import { BANK_LINES_PAGE, type BankLineRecord } from '../../workflows/agent-runs/tools';
import { BATCH_MAX_ENTRIES } from '../../workflows/gateway/writes';
import {
  DEFAULT_POLICY,
  cardKeyOf,
  decide,
  evidenceOf,
  merchantKey,
  type ClassificationPolicy,
} from './classify';
import { resolveTax, taxOfGross, type TaxResolution } from './tax';
import {
  agrees,
  buildClassificationPrompt,
  formatMinor,
  parseClassificationReply,
  replyTokenBudget,
} from './hybrid';

/**
 * The bank transaction processor. On `card.transactions_imported` it classifies each new line
 * (rules, memorized patterns, vendor defaults — see classify.ts), posts the confident ones
 * through the gateway in journal.post_batch submissions, records them, and puts every line it
 * cannot classify confidently into ONE classification request for a person, then waits
 * (waiting_human). On that request's completion (`request.completed`) it posts the answered
 * lines the same way and records the answers: its memory, per org.
 *
 * Hybrid when a model is available (ctx.modelAvailable: an API key is configured): the run's
 * THIN lines — this card's few resolutions of the merchant all to one account, every other
 * check passed — go to ONE model call (at most hybrid.max_lines_per_call of them) with the
 * chart and each line's date, amount and merchant. A thin line is posted (recorded `hybrid`)
 * only when the model's code is the memory's candidate; otherwise it is asked with the
 * model's pick in its label. No model, a budget stop, a failed call or an unreadable reply:
 * those lines are asked, as in code mode — the run never ends needs_human over it.
 */
export const CARD_LINES_EVENT = 'card.transactions_imported';
/**
 * Statement lines the reconciliation agent found no match for: the same lines (spending
 * positive), credited to the statement's bank ledger account instead of the role account.
 */
export const UNRECONCILED_LINES_EVENT = 'bank.lines_unreconciled';

const SignedMinor = z
  .string()
  .regex(/^-?[1-9][0-9]{0,14}$/, 'a non-zero amount in signed integer minor units');
export const CardLineSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9._-]{1,79}$/),
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    amountMinor: SignedMinor,
    merchant: z.string().trim().min(1).max(300),
    card: z.string().max(40).nullable().default(null),
    taxCode: z.string().max(20).nullable().default(null),
  })
  .strict();
export const CardLinesPayloadSchema = z
  .object({
    feedId: z.string().regex(/^[A-Za-z0-9._-]{1,20}$/),
    batchId: z.string().min(1).max(200),
    currency: z.string().regex(/^[A-Z]{3}$/),
    lines: z.array(CardLineSchema).min(1).max(10_000),
  })
  .strict();
export type CardLinesPayload = z.input<typeof CardLinesPayloadSchema>;
export const UnreconciledLinesPayloadSchema = CardLinesPayloadSchema.extend({
  /** The org bank account the statement belongs to, and its ledger account (credited). */
  bankAccountId: z.string().min(1).max(200),
  creditAccountId: z.string().min(1).max(200),
}).strict();
export type UnreconciledLinesPayload = z.input<typeof UnreconciledLinesPayloadSchema>;

const CallbackSchema = z.object({
  requestCallback: z.literal(true),
  requestId: z.string().min(1),
  createdByAgentType: z.string().nullable(),
  answer: z.record(z.string(), z.unknown()).nullable(),
  answeredBy: z.string().nullable(),
});

const SettingsSchema = z.object({
  credit_account_role: z.string().default('bank'),
  batch_size: z.number().int().min(1).max(BATCH_MAX_ENTRIES).default(BATCH_MAX_ENTRIES),
  items_per_field: z.number().int().min(1).max(200).default(200),
  request_due_days: z.number().int().min(1).max(90).default(7),
  policy: z
    .object({
      min_card_resolutions: z.number().int().min(1).default(DEFAULT_POLICY.minCardResolutions),
      max_merchant_accounts: z.number().int().min(1).default(DEFAULT_POLICY.maxMerchantAccounts),
      min_merchant_share: z.number().min(0).max(1).default(DEFAULT_POLICY.minMerchantShare),
    })
    .default({
      min_card_resolutions: DEFAULT_POLICY.minCardResolutions,
      max_merchant_accounts: DEFAULT_POLICY.maxMerchantAccounts,
      min_merchant_share: DEFAULT_POLICY.minMerchantShare,
    }),
  // Org tax codes by the feed's VAT descriptor ({ VR: UK-STD-IN }): an explicit mapping, never
  // inferred. Unmapped descriptors post the gross to the expense as before.
  tax_codes: z.record(z.string().min(1).max(20), z.string().min(1).max(40)).default({}),
  rules: z
    .array(
      z
        .object({
          match: z
            .string()
            .min(1)
            .max(200)
            .refine(
              (re) => {
                try {
                  new RegExp(re);
                  return true;
                } catch {
                  return false;
                }
              },
              { message: 'a regular expression' },
            ),
          account_code: z.string().min(1).max(20),
          card: z.string().max(20).optional(),
        })
        .strict(),
    )
    .max(500)
    .default([]),
  hybrid: z
    .object({
      /** Thin lines sent in the run's one model call; the rest are asked without it. */
      max_lines_per_call: z.number().int().min(1).max(500).default(100),
    })
    .strict()
    .default({ max_lines_per_call: 100 }),
});
type Settings = z.infer<typeof SettingsSchema>;

type Line = BankLineRecord;

/**
 * Debit the expense (credit it for a refund) against the account card spending is credited to;
 * with a tax code in effect, the gross splits into the expense's net and the code's tax account.
 */
function entryOf(l: Line, accountId: string, roleCreditAccountId: string, tax: TaxResolution) {
  const creditAccountId = l.creditAccountId ?? roleCreditAccountId;
  const amount = l.amountMinor.startsWith('-') ? l.amountMinor.slice(1) : l.amountMinor;
  const spend = !l.amountMinor.startsWith('-');
  const memo = `${l.merchant}${l.cardKey ? ` (card ${l.cardKey})` : ''}${l.taxCode ? ` VAT ${l.taxCode}` : ''}`;
  const taxMinor = tax.kind === 'split' ? taxOfGross(BigInt(amount), tax.rateBasisPoints) : 0n;
  const cur = l.currency;
  const base = { key: l.lineKey, entryDate: l.entryDate, memo: memo.slice(0, 500) };
  if (tax.kind === 'split' && taxMinor > 0n) {
    const net = String(BigInt(amount) - taxMinor);
    const taxLine = { accountId: tax.accountId, currency: cur, memo: `${tax.code} on ${amount}` };
    return {
      ...base,
      lines: spend
        ? [
            { accountId, currency: cur, debit: net, memo: `net of ${tax.code}` },
            { ...taxLine, debit: String(taxMinor) },
            { accountId: creditAccountId, currency: cur, credit: amount },
          ]
        : [
            { accountId: creditAccountId, currency: cur, debit: amount },
            { accountId, currency: cur, credit: net, memo: `net of ${tax.code}` },
            { ...taxLine, credit: String(taxMinor) },
          ],
    };
  }
  const unsplit = tax.kind === 'unresolved' ? `VAT not split: ${tax.reason}` : null;
  return {
    ...base,
    lines: [
      {
        accountId: spend ? accountId : creditAccountId,
        currency: cur,
        debit: amount,
        ...(unsplit
          ? { memo: unsplit.slice(0, 500) }
          : l.taxCode
            ? { memo: `tax ${l.taxCode}` }
            : {}),
      },
      { accountId: spend ? creditAccountId : accountId, currency: cur, credit: amount },
    ],
  };
}

/** Posts classified lines in journal.post_batch submissions; returns the lines refused. */
async function post(
  ctx: AgentContext,
  lines: { line: Line; accountId: string }[],
  creditAccountId: string,
  s: Settings,
  source: string,
  taxOf: (l: Line) => TaxResolution,
): Promise<{ posted: Line[]; refused: Line[] }> {
  const posted: Line[] = [];
  const refused: Line[] = [];
  for (let i = 0; i < lines.length; i += s.batch_size) {
    const part = lines.slice(i, i + s.batch_size);
    const r = await ctx.tool('submit', {
      kind: 'journal.post_batch',
      payload: {
        entries: part.map((p) => entryOf(p.line, p.accountId, creditAccountId, taxOf(p.line))),
      },
    });
    if (r.status === 'started') posted.push(...part.map((p) => p.line));
    else {
      refused.push(...part.map((p) => p.line));
      await ctx.log(`batch of ${part.length} ${source} line(s) refused`, { detail: r.detail });
    }
  }
  return { posted, refused };
}

interface HybridOutcome {
  /** Thin lines the model agreed on: posted, recorded `hybrid`. */
  agreed: { line: Line; accountId: string }[];
  /** What the model said about each thin line it did not agree on (shown to the person). */
  notes: Map<string, string>;
  summary: {
    thin: number;
    sent: number;
    agreed: number;
    disagreed: number;
    unsure: number;
    /** Why the model gave nothing usable (no key, budget, failure, unreadable reply). */
    unavailable: string | null;
  };
}

/**
 * The hybrid step: one model call about the run's thin lines (see hybrid.ts). The model sees
 * the chart and each line's date, amount and merchant — not the card, not the earlier
 * answers — and a line is posted only when its pick is the memory's single candidate.
 */
async function consultOnThin(
  ctx: AgentContext,
  thin: { line: Line; candidate: string }[],
  chart: { id: string; code: string; name: string }[],
  s: Settings,
): Promise<HybridOutcome> {
  const sent = thin.slice(0, s.hybrid.max_lines_per_call);
  const codeOf = new Map(chart.map((a) => [a.id, a.code]));
  const summary: HybridOutcome['summary'] = {
    thin: thin.length,
    sent: sent.length,
    agreed: 0,
    disagreed: 0,
    unsure: 0,
    unavailable: null,
  };
  const notes = new Map<string, string>();
  const agreed: HybridOutcome['agreed'] = [];
  const reply = await ctx.consultModel(
    buildClassificationPrompt(
      chart.map((a) => ({ code: a.code, name: a.name })),
      sent.map((t) => ({
        date: t.line.entryDate,
        amountMinor: t.line.amountMinor,
        currency: t.line.currency,
        merchant: t.line.merchant,
      })),
    ),
    { maxTokens: replyTokenBudget(sent.length) },
  );
  if (reply.status !== 'ok') {
    summary.unavailable = reply.reason.slice(0, 300);
    return { agreed, notes, summary };
  }
  const parsed = parseClassificationReply(reply.text, sent.length, new Set(codeOf.values()));
  if (parsed.malformed) {
    summary.unavailable = `unreadable model reply: ${parsed.malformed}`.slice(0, 300);
    await ctx.log(`model reply unreadable, ${sent.length} thin line(s) asked`, {
      reason: parsed.malformed,
    });
  }
  sent.forEach((t, i) => {
    const answer = parsed.answers[i] ?? { kind: 'unsure' as const, why: 'no answer' as const };
    const earlier = codeOf.get(t.candidate) ?? '?';
    if (agrees(answer, earlier)) {
      agreed.push({ line: t.line, accountId: t.candidate });
      summary.agreed += 1;
    } else if (answer.kind === 'code') {
      summary.disagreed += 1;
      notes.set(t.line.lineKey, `model suggests ${answer.code}, earlier answers ${earlier}`);
    } else {
      summary.unsure += 1;
      if (!parsed.malformed)
        notes.set(t.line.lineKey, `model ${answer.why}, earlier answers ${earlier}`);
    }
  });
  return { agreed, notes, summary };
}

/** Records lines in the memory a page at a time (each call's payload stays small). */
async function record(ctx: AgentContext, lines: Line[]): Promise<void> {
  for (let i = 0; i < lines.length; i += BANK_LINES_PAGE)
    await ctx.tool('bank_lines_record', { lines: lines.slice(i, i + BANK_LINES_PAGE) });
}

async function onImport(ctx: AgentContext, s: Settings): Promise<HandlerResult> {
  const parsed = (
    ctx.trigger.eventType === UNRECONCILED_LINES_EVENT
      ? UnreconciledLinesPayloadSchema
      : CardLinesPayloadSchema
  ).safeParse(ctx.trigger.payload);
  if (!parsed.success)
    return {
      status: 'failed',
      summary: `trigger payload invalid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    };
  const p = parsed.data;
  const statementCredit = 'creditAccountId' in p ? (p.creditAccountId as string) : null;
  const statementRef = `${p.feedId}:${p.batchId}`.slice(0, 300);
  const all: Line[] = p.lines.map((l) => ({
    lineKey: `${p.feedId}:${l.id}`,
    statementRef,
    entryDate: l.date,
    amountMinor: l.amountMinor,
    currency: p.currency,
    merchant: l.merchant,
    merchantKey: merchantKey(l.merchant),
    cardKey: cardKeyOf(l.card),
    taxCode: l.taxCode,
    status: 'asked',
    accountId: null,
    requestId: null,
    ...(statementCredit ? { creditAccountId: statementCredit } : {}),
  }));
  const c = await ctx.tool('bank_context', {
    lineKeys: all.map((l) => l.lineKey),
    merchantKeys: [...new Set(all.map((l) => l.merchantKey))],
    creditAccountRole: s.credit_account_role,
  });
  if (!c.creditAccountId)
    return {
      status: 'failed',
      summary: `the chart has no account with system role ${s.credit_account_role} to credit card spending to`,
    };
  if (statementCredit && !c.accounts.some((a) => a.id === statementCredit && a.active))
    return {
      status: 'failed',
      summary: `the statement's bank ledger account ${statementCredit} is not an active account of the chart`,
    };
  const known = new Set(c.known.map((k) => k.lineKey));
  const fresh = all.filter((l) => !known.has(l.lineKey));
  const byCode = new Map(c.accounts.filter((a) => a.active).map((a) => [a.code, a.id]));
  const rules = s.rules.flatMap((r) => {
    const accountId = byCode.get(r.account_code);
    return accountId
      ? [{ re: new RegExp(r.match), accountId, ...(r.card ? { cardKey: r.card } : {}) }]
      : [];
  });
  const policy: ClassificationPolicy = {
    minCardResolutions: s.policy.min_card_resolutions,
    maxMerchantAccounts: s.policy.max_merchant_accounts,
    minMerchantShare: s.policy.min_merchant_share,
  };
  const taxOf = (l: Line) => resolveTax(l.taxCode, l.entryDate, s.tax_codes, c.taxCodes);
  const evidence = evidenceOf(c.resolutions);
  const vendors = new Map(c.vendors.map((v) => [merchantKey(v.name), v.accountId]));
  const auto: { line: Line; accountId: string }[] = [];
  let ask: Line[] = [];
  const thin: { line: Line; candidate: string }[] = [];
  const whyAsked = new Map<string, string>();
  for (const l of fresh) {
    const d = decide(l, { evidence, rules, vendors, policy });
    const tax = taxOf(l);
    if (tax.kind === 'unresolved') {
      // Never split (or not split) the VAT on a guess: a person looks at the line.
      ask.push(l);
      whyAsked.set(l.lineKey, 'tax code');
      continue;
    }
    if (d.kind === 'auto') auto.push({ line: l, accountId: d.accountId });
    else {
      ask.push(l);
      whyAsked.set(l.lineKey, d.reason.split(':')[0] ?? d.reason);
      if (d.thinCandidate) thin.push({ line: l, candidate: d.thinCandidate });
    }
  }
  // The accounts a line may go to: those a person is offered (never the account credited).
  const chart = c.accounts
    .filter((a) => a.active && a.id !== c.creditAccountId && a.id !== statementCredit)
    .slice(0, 2000);
  const hybrid =
    ctx.modelAvailable && thin.length > 0 ? await consultOnThin(ctx, thin, chart, s) : null;
  const statusOf = new Map<string, 'auto' | 'hybrid'>(
    auto.map((a) => [a.line.lineKey, 'auto' as const]),
  );
  if (hybrid) {
    for (const a of hybrid.agreed) statusOf.set(a.line.lineKey, 'hybrid');
    ask = ask.filter((l) => statusOf.get(l.lineKey) !== 'hybrid');
    auto.push(...hybrid.agreed);
  }
  const reasons = new Map<string, number>();
  for (const l of ask) {
    const why = whyAsked.get(l.lineKey) ?? 'refused';
    reasons.set(why, (reasons.get(why) ?? 0) + 1);
  }
  await ctx.log(
    `${all.length} line(s): ${all.length - fresh.length} seen before, ${auto.length} classified${hybrid ? ` (${hybrid.summary.agreed} of ${hybrid.summary.sent} thin line(s) confirmed by the model)` : ''}, ${ask.length} to ask`,
    {
      reasons: Object.fromEntries(reasons),
      ...(hybrid ? { model: hybrid.summary } : {}),
    },
  );
  const { posted, refused } = await post(ctx, auto, c.creditAccountId, s, 'auto', taxOf);
  const accountOf = new Map(auto.map((a) => [a.line.lineKey, a.accountId]));
  await record(
    ctx,
    posted.map((l) => ({
      ...l,
      status: statusOf.get(l.lineKey) ?? ('auto' as const),
      accountId: accountOf.get(l.lineKey) ?? null,
    })),
  );
  const hybridPosted = posted.filter((l) => statusOf.get(l.lineKey) === 'hybrid').length;
  ask = [...ask, ...refused];
  if (ask.length === 0)
    return {
      status: 'succeeded',
      summary: `${posted.length} line(s) posted automatically, none to ask`,
      data: {
        lines: all.length,
        autoPosted: posted.length,
        hybridPosted,
        asked: 0,
        requestId: null,
        ...(hybrid ? { model: hybrid.summary } : {}),
      },
    };

  // ONE request for the run: the lines in fields of at most items_per_field items.
  const maxItems = 50 * s.items_per_field;
  const asking = ask.slice(0, maxItems);
  const codes = chart.map((a) => a.code);
  const fields = [];
  for (let i = 0; i < asking.length; i += s.items_per_field)
    fields.push({
      kind: 'code_per_item' as const,
      name: `lines_${fields.length + 1}`,
      label: `Ledger account for lines ${i + 1}–${Math.min(asking.length, i + s.items_per_field)}`,
      items: asking.slice(i, i + s.items_per_field).map((l) => ({
        id: l.lineKey,
        label:
          `${l.entryDate} · ${formatMinor(l.amountMinor)} ${l.currency} · ${l.merchant}${l.cardKey ? ` · card ${l.cardKey}` : ''}${l.taxCode ? ` · VAT ${l.taxCode}` : ''}${hybrid?.notes.has(l.lineKey) ? ` · ${hybrid.notes.get(l.lineKey)}` : ''}`.slice(
            0,
            500,
          ),
      })),
      codes,
    });
  const req = await ctx.request({
    type: 'classification',
    title: `Classify ${asking.length} card line(s) of ${statementRef}`.slice(0, 300),
    question:
      `Which ledger account does each of these ${asking.length} card line(s) belong to? ` +
      `They could not be classified with enough evidence (${[...reasons].map(([k, n]) => `${n} ${k}`).join(', ')}). ` +
      'Your answers are posted and remembered: a merchant and card resolved the same way several times is classified automatically next time.' +
      (hybrid && hybrid.notes.size > 0
        ? ` For ${hybrid.notes.size} line(s) a model was asked as a second opinion; it disagreed with the earlier answers or was unsure (shown in the line), so nothing was posted.`
        : ''),
    answerSchema: { fields },
    evidence: {
      statementRef,
      lines: all.length,
      autoPosted: posted.length,
      hybridPosted,
      asked: asking.length,
      ...(hybrid ? { model: hybrid.summary } : {}),
    },
    dueInDays: s.request_due_days,
    expiresInDays: Math.max(s.request_due_days + 1, 30),
    dedupKey: `bank-lines:${statementRef}`.slice(0, 200),
  });
  await record(
    ctx,
    asking.map((l) => ({ ...l, status: 'asked' as const, requestId: req.requestId })),
  );
  return {
    status: 'waiting_human',
    summary: `${posted.length} line(s) posted automatically; ${asking.length} asked in request ${req.requestId}`,
    data: {
      lines: all.length,
      autoPosted: posted.length,
      hybridPosted,
      asked: asking.length,
      notAsked: ask.length - asking.length,
      requestId: req.requestId,
      ...(hybrid ? { model: hybrid.summary } : {}),
    },
  };
}

async function onAnswer(ctx: AgentContext, s: Settings): Promise<HandlerResult> {
  const cb = CallbackSchema.safeParse(ctx.trigger.payload);
  if (!cb.success)
    return { status: 'failed', summary: 'request.completed payload is not a request callback' };
  if (cb.data.createdByAgentType !== ctx.agentType)
    return {
      status: 'succeeded',
      summary: `request ${cb.data.requestId} is not ours: nothing to do`,
    };
  const { requestId, answer } = cb.data;
  const asked: Line[] = [];
  for (let after: string | undefined; ;) {
    const page = await ctx.tool('bank_lines_asked', {
      requestId,
      limit: BANK_LINES_PAGE,
      ...(after === undefined ? {} : { after }),
    });
    asked.push(...page.lines);
    if (!page.next) break;
    after = page.next;
  }
  if (asked.length === 0)
    return {
      status: 'succeeded',
      summary: `request ${requestId}: no line waiting (already applied)`,
    };
  if (!answer)
    return {
      status: 'needs_human',
      summary: `request ${requestId} closed without an answer; ${asked.length} line(s) stay asked`,
    };
  const codeOf = new Map<string, string>();
  for (const v of Object.values(answer))
    if (v && typeof v === 'object')
      for (const [k, code] of Object.entries(v as Record<string, unknown>))
        if (typeof code === 'string') codeOf.set(k, code);
  const c = await ctx.tool('bank_context', {
    lineKeys: [],
    merchantKeys: [],
    creditAccountRole: s.credit_account_role,
  });
  if (!c.creditAccountId)
    return { status: 'failed', summary: `no account with system role ${s.credit_account_role}` };
  const byCode = new Map(c.accounts.filter((a) => a.active).map((a) => [a.code, a.id]));
  const answered: { line: Line; accountId: string }[] = [];
  const unanswered: Line[] = [];
  for (const l of asked) {
    const accountId = byCode.get(codeOf.get(l.lineKey) ?? '');
    if (accountId) answered.push({ line: l, accountId });
    else unanswered.push(l);
  }
  // A person chose the account; a descriptor whose tax code is not in effect posts the gross,
  // with the reason on the line (the total is right; the VAT is left for a person to split).
  const { posted, refused } = await post(ctx, answered, c.creditAccountId, s, 'answered', (l) =>
    resolveTax(l.taxCode, l.entryDate, s.tax_codes, c.taxCodes),
  );
  const accountOf = new Map(answered.map((a) => [a.line.lineKey, a.accountId]));
  const r = await ctx.tool('bank_lines_resolve', {
    requestId,
    resolutions: posted.map((l) => ({
      lineKey: l.lineKey,
      accountId: accountOf.get(l.lineKey) ?? '',
    })),
  });
  return {
    status: 'succeeded',
    summary: `request ${requestId}: ${posted.length} answered line(s) posted and remembered${unanswered.length + refused.length > 0 ? `; ${unanswered.length} without a usable code, ${refused.length} refused — still asked` : ''}`,
    data: {
      requestId,
      posted: posted.length,
      resolved: r.resolved,
      unanswered: unanswered.length,
      refused: refused.length,
    },
  };
}

export async function handle(ctx: AgentContext): Promise<HandlerResult> {
  const s = SettingsSchema.parse(ctx.settings);
  if (
    ctx.trigger.eventType === CARD_LINES_EVENT ||
    ctx.trigger.eventType === UNRECONCILED_LINES_EVENT
  )
    return onImport(ctx, s);
  if (ctx.trigger.payload.requestCallback === true) return onAnswer(ctx, s);
  return { status: 'failed', summary: `unexpected trigger ${ctx.trigger.eventType}` };
}
