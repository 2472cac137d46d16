import { z } from 'zod';
import type { AgentContext, HandlerResult } from '../../workflows/agent-runs/context';
import { BANK_LINES_PAGE, type BankLineRecord } from '../../workflows/agent-runs/tools';
import { BATCH_MAX_ENTRIES } from '../../workflows/gateway/writes';
import {
  DEFAULT_POLICY,
  decide,
  evidenceOf,
  merchantKey,
  type ClassificationPolicy,
} from './classify';

/**
 * The bank transaction processor. On `card.transactions_imported` it classifies each new line
 * (rules, memorized patterns, vendor defaults — see classify.ts), posts the confident ones
 * through the gateway in journal.post_batch submissions, records them, and puts every line it
 * cannot classify confidently into ONE classification request for a person, then waits
 * (waiting_human). On that request's completion (`request.completed`) it posts the answered
 * lines the same way and records the answers: its memory, per org.
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
});
type Settings = z.infer<typeof SettingsSchema>;

const cardKeyOf = (card: string | null) => (card ? card.replace(/\D/g, '').slice(-4) : '');

/** "-1234" minor units → "-12.34" (two decimals: the label a person reads). */
function formatMinor(minor: string): string {
  const neg = minor.startsWith('-');
  const digits = (neg ? minor.slice(1) : minor).padStart(3, '0');
  return `${neg ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

type Line = BankLineRecord;

/** Debit the expense (credit it for a refund) against the account card spending is credited to. */
function entryOf(l: Line, accountId: string, roleCreditAccountId: string) {
  const creditAccountId = l.creditAccountId ?? roleCreditAccountId;
  const amount = l.amountMinor.startsWith('-') ? l.amountMinor.slice(1) : l.amountMinor;
  const spend = !l.amountMinor.startsWith('-');
  const memo = `${l.merchant}${l.cardKey ? ` (card ${l.cardKey})` : ''}${l.taxCode ? ` VAT ${l.taxCode}` : ''}`;
  return {
    key: l.lineKey,
    entryDate: l.entryDate,
    memo: memo.slice(0, 500),
    lines: [
      {
        accountId: spend ? accountId : creditAccountId,
        currency: l.currency,
        debit: amount,
        ...(l.taxCode ? { memo: `tax ${l.taxCode}` } : {}),
      },
      { accountId: spend ? creditAccountId : accountId, currency: l.currency, credit: amount },
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
): Promise<{ posted: Line[]; refused: Line[] }> {
  const posted: Line[] = [];
  const refused: Line[] = [];
  for (let i = 0; i < lines.length; i += s.batch_size) {
    const part = lines.slice(i, i + s.batch_size);
    const r = await ctx.tool('submit', {
      kind: 'journal.post_batch',
      payload: { entries: part.map((p) => entryOf(p.line, p.accountId, creditAccountId)) },
    });
    if (r.status === 'started') posted.push(...part.map((p) => p.line));
    else {
      refused.push(...part.map((p) => p.line));
      await ctx.log(`batch of ${part.length} ${source} line(s) refused`, { detail: r.detail });
    }
  }
  return { posted, refused };
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
  const evidence = evidenceOf(c.resolutions);
  const vendors = new Map(c.vendors.map((v) => [merchantKey(v.name), v.accountId]));
  const auto: { line: Line; accountId: string }[] = [];
  let ask: Line[] = [];
  const reasons = new Map<string, number>();
  for (const l of fresh) {
    const d = decide(l, { evidence, rules, vendors, policy });
    if (d.kind === 'auto') auto.push({ line: l, accountId: d.accountId });
    else {
      ask.push(l);
      const why = d.reason.split(':')[0] ?? d.reason;
      reasons.set(why, (reasons.get(why) ?? 0) + 1);
    }
  }
  await ctx.log(
    `${all.length} line(s): ${all.length - fresh.length} seen before, ${auto.length} classified, ${ask.length} to ask`,
    {
      reasons: Object.fromEntries(reasons),
    },
  );
  const { posted, refused } = await post(ctx, auto, c.creditAccountId, s, 'auto');
  const accountOf = new Map(auto.map((a) => [a.line.lineKey, a.accountId]));
  await record(
    ctx,
    posted.map((l) => ({
      ...l,
      status: 'auto' as const,
      accountId: accountOf.get(l.lineKey) ?? null,
    })),
  );
  ask = [...ask, ...refused];
  if (ask.length === 0)
    return {
      status: 'succeeded',
      summary: `${posted.length} line(s) posted automatically, none to ask`,
      data: { lines: all.length, autoPosted: posted.length, asked: 0, requestId: null },
    };

  // ONE request for the run: the lines in fields of at most items_per_field items.
  const maxItems = 50 * s.items_per_field;
  const asking = ask.slice(0, maxItems);
  const codes = c.accounts
    .filter((a) => a.active && a.id !== c.creditAccountId && a.id !== statementCredit)
    .map((a) => a.code)
    .slice(0, 2000);
  const fields = [];
  for (let i = 0; i < asking.length; i += s.items_per_field)
    fields.push({
      kind: 'code_per_item' as const,
      name: `lines_${fields.length + 1}`,
      label: `Ledger account for lines ${i + 1}–${Math.min(asking.length, i + s.items_per_field)}`,
      items: asking.slice(i, i + s.items_per_field).map((l) => ({
        id: l.lineKey,
        label:
          `${l.entryDate} · ${formatMinor(l.amountMinor)} ${l.currency} · ${l.merchant}${l.cardKey ? ` · card ${l.cardKey}` : ''}${l.taxCode ? ` · VAT ${l.taxCode}` : ''}`.slice(
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
      'Your answers are posted and remembered: a merchant and card resolved the same way several times is classified automatically next time.',
    answerSchema: { fields },
    evidence: { statementRef, lines: all.length, autoPosted: posted.length, asked: asking.length },
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
      asked: asking.length,
      notAsked: ask.length - asking.length,
      requestId: req.requestId,
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
  const { posted, refused } = await post(ctx, answered, c.creditAccountId, s, 'answered');
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
