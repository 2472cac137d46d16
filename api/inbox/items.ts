import { z } from 'zod';
import type { Db } from '../../db/connection';
import { getDocument, loadPage } from '../../db/repositories/documents';
import { accountNames } from '../../db/repositories/ledger';
import { membershipsOf, openApprovalsFor, openReviewsIn } from '../../db/repositories/inbox';
import type { GatewayClient } from '../../client/gateway-client';
import type { AnalysisClient } from '../../client/analysis-client';
import type { RequestsClient, InboxItem as RequestInboxItem } from '../../client/requests-client';
import { AnswerSchemaSchema } from '../../workflows/requests/answer-schema';
import type { Citation, NumericClaim } from '../../workflows/analysis/evidence';
import { accountLabel } from '../../client/format/accounts';
import { accountIdsIn } from '../../client/format/write-summary';
import { describeBankAccount } from '../../client/format/bank-account';
import {
  DEFAULT_LOCALE,
  formatDecimalMoney,
  formatMoney,
  isCurrencyCode,
} from '../../client/format/money';
import { decimalToMinor } from '../../workflows/bills/minor-units';
import { ruleInWords } from '../../client/format/risk-rules';
import { ACTIONS } from '../../workflows/roles';
import { highlight, HighlightedCitationSchema, quoteOnly } from './citations';

export { highlight, HighlightedCitationSchema, type HighlightedCitation } from './citations';

/**
 * One person's open tasks: the approvals they may sign, the reviews they may decide and the
 * requests routed to them, in the org their key was issued for — each with what the list shows
 * (subject, amount, lane, due, waiting since) and the evidence a decision needs: the proposed
 * entries with accounts named, the risk rules in words, the payee with the IBAN masked, or the
 * proposed answer with each cited span and the number in it marked.
 */
const MoneySchema = z.object({ minor: z.string(), currency: z.string(), text: z.string() });

export const InboxItemSchema = z.object({
  kind: z.enum(['approval', 'review', 'request']),
  orgId: z.string(),
  /** The idempotency key (approval), request id (review) or human request id. */
  id: z.string(),
  /** approval: the write kind; review: the query type; request: the request type. */
  type: z.string(),
  title: z.string(),
  /** What the task is about, in one line (an entry's memo, the question, the request title). */
  subject: z.string(),
  asked: z.string(),
  /** The gross amount moved (the entry's debits, a payment's amount); null when none. */
  amount: MoneySchema.nullable(),
  lane: z.string().nullable(),
  /** Who the task waits for: a user id, or a role ("approvers", "reviewers", "admins"). */
  assignee: z.string(),
  createdAt: z.string().nullable(),
  dueAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  /** Where the decision goes (the same route as the API's). */
  decisionPath: z.string(),
  decisions: z.array(z.string()),
  /**
   * An approval's plan as this page shows it: the decision sends it back, so a plan that
   * changed after the page was drawn is refused (with the current revision), not approved.
   */
  plan: z.object({ revision: z.number().int(), planHash: z.string() }).nullable(),
  /** The locale the amounts are laid out in (the reader's Accept-Language); en-US if absent. */
  locale: z.string().optional(),
  evidence: z.object({
    risk: z
      .object({
        score: z.number(),
        lane: z.string(),
        requiredApprovals: z.number(),
        approvals: z.number(),
        rules: z.array(
          z.object({ rule: z.string(), lane: z.string(), detail: z.string(), words: z.string() }),
        ),
      })
      .nullable(),
    entries: z.array(
      z.object({
        entryDate: z.string(),
        memo: z.string(),
        lines: z.array(
          z.object({
            accountId: z.string(),
            /** "6200 Travel" (the id when the account is unknown). */
            account: z.string(),
            currency: z.string(),
            debit: z.string(),
            credit: z.string(),
          }),
        ),
      }),
    ),
    /** The payee's bank account by name, its number masked except the last four. */
    payee: z.string().nullable(),
    payload: z.unknown(),
    /** A human request's answer form (empty for approvals and reviews). */
    fields: z.array(
      z.object({
        name: z.string(),
        label: z.string(),
        kind: z.string(),
        required: z.boolean(),
        options: z.array(z.string()).optional(),
        items: z.array(z.object({ id: z.string(), label: z.string() })).optional(),
      }),
    ),
    answer: z.string().nullable(),
    reasons: z.array(z.string()),
    claims: z.array(
      z.object({
        id: z.string(),
        label: z.string(),
        value: z.string(),
        unit: z.string(),
        printed: z.string().nullable(),
        /** A money claim's value as people read it ("$9,447,000,000.00"); absent otherwise. */
        formatted: z.string().optional(),
        citations: z.array(HighlightedCitationSchema),
      }),
    ),
  }),
});
export type InboxItem = z.infer<typeof InboxItemSchema>;

export interface InboxDeps {
  db: Db;
  gateway: GatewayClient;
  analysis: AnalysisClient;
  requests: RequestsClient;
}

/** The orgs (of the key's one) where the person may approve and review. */
export async function decidingOrgs(
  db: Db,
  userId: string,
  keyOrgId: string,
): Promise<{ orgs: string[]; canApprove: string[]; canReview: string[] }> {
  const orgs = (await membershipsOf(db, userId)).filter((o) => o.orgId === keyOrgId);
  const holds = (roles: readonly string[]) =>
    orgs.filter((o) => o.roles.some((r) => roles.includes(r))).map((o) => o.orgId);
  return {
    orgs: orgs.map((o) => o.orgId),
    canApprove: holds(ACTIONS.approve_write),
    canReview: holds(ACTIONS.review_analysis),
  };
}

/** The person's tasks in the org their key was issued for (a key acts in that org only). */
export async function inboxFor(
  deps: InboxDeps,
  userId: string,
  keyOrgId: string,
  locale: string = DEFAULT_LOCALE,
): Promise<InboxItem[]> {
  const { orgs, canApprove, canReview } = await decidingOrgs(deps.db, userId, keyOrgId);
  const [approvals, reviews, requests] = await Promise.all([
    openApprovalsFor(deps.db, userId, canApprove),
    openReviewsIn(deps.db, canReview),
    // Agents' requests routed to this person (approvals and reviews are listed above, with
    // their evidence, so the requests' copies of them are left out here).
    Promise.all(orgs.map((orgId) => deps.requests.listInbox({ orgId, userId }))).then((l) =>
      l.flat().filter((r) => r.source === 'request'),
    ),
  ]);
  const items = await Promise.all([
    ...approvals.map((a) => approvalItem(deps, a, locale)),
    ...reviews.map((r) => reviewItem(deps, r, locale)),
    ...requests.map((r) => Promise.resolve(requestItem(r, locale))),
  ]);
  return items
    .filter((i): i is InboxItem => i !== null)
    .map((i) => ({ ...i, locale }))
    .sort((a, b) => (a.dueAt ?? '9999').localeCompare(b.dueAt ?? '9999'));
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const money = (minor: string, currency: string, locale: string) => ({
  minor,
  currency,
  text: formatMoney(minor, currency, locale),
});

/** A decimal in major units ("1250.00", a claim's value) as a list amount, when it is money. */
function decimalMoney(decimal: string, currency: string, locale: string): InboxItem['amount'] {
  if (!isCurrencyCode(currency)) return null;
  const minor = decimalToMinor(decimal.trim(), currency);
  return minor === null ? null : money(minor.toString(), currency, locale);
}

async function approvalItem(
  deps: InboxDeps,
  a: Awaited<ReturnType<typeof openApprovalsFor>>[number],
  locale: string,
): Promise<InboxItem | null> {
  // The workflow's own view: the plan revision approvers sign (entries, payee, risk).
  const state = await deps.gateway.state(a.orgId, a.idempotencyKey).catch(() => null);
  if (!state || state.status !== 'awaiting_approval') return null;
  const by =
    a.submitterKind === 'agent'
      ? `agent ${a.agentType}`
      : `${a.submitterUserId ?? a.submitterKind}`;
  const approvals = state.votes.filter(
    (v) => v.decision === 'approve' && (v.revision ?? 0) === state.revision,
  ).length;
  const lines = state.preview.flatMap((e) => e.lines);
  const names = await accountNames(deps.db, a.orgId, accountIdsIn(state.preview, state.risk));
  const amount = grossAmount(lines, a.payload, locale);
  const memo = state.preview[0]?.memo;
  return {
    kind: 'approval',
    orgId: a.orgId,
    id: a.idempotencyKey,
    type: a.kind,
    title: `${a.kind} — ${state.risk?.lane ?? a.lane} risk`,
    subject: memo ? memo : state.payee ? `pay ${state.payee.holderName}` : a.idempotencyKey,
    asked: `Approve or reject ${a.kind} "${a.idempotencyKey}" submitted by ${by} in ${a.orgId}`,
    amount,
    lane: state.risk?.lane ?? a.lane,
    assignee: 'approvers',
    createdAt: iso(a.createdAt),
    dueAt: state.dueAt ?? iso(a.dueAt),
    expiresAt: state.expiresAt ?? iso(a.expiresAt),
    decisionPath: `/v1/orgs/${encodeURIComponent(a.orgId)}/writes/${encodeURIComponent(a.idempotencyKey)}/decisions`,
    decisions: ['approve', 'reject'],
    plan: state.planHash ? { revision: state.revision, planHash: state.planHash } : null,
    evidence: {
      risk: state.risk
        ? {
            score: state.risk.score,
            lane: state.risk.lane,
            requiredApprovals: state.risk.requiredApprovals,
            approvals,
            rules: state.risk.rules.map((r) => ({
              rule: r.rule,
              lane: r.lane,
              detail: r.detail,
              words: ruleInWords(r, names, locale),
            })),
          }
        : null,
      entries: state.preview.map((e) => ({
        entryDate: e.entryDate,
        memo: e.memo,
        lines: e.lines.map((l) => ({
          accountId: l.accountId,
          account: accountLabel(l.accountId, names),
          currency: l.currency,
          debit: l.debit,
          credit: l.credit,
        })),
      })),
      payee: state.payee ? describeBankAccount(state.payee) : null,
      payload: null,
      fields: [],
      answer: null,
      reasons: [],
      claims: [],
    },
  };
}

/** The entry's debits in its (first) currency, or a payment's own amount. */
function grossAmount(
  lines: { currency: string; debit: string }[],
  payload: unknown,
  locale: string,
): InboxItem['amount'] {
  const first = lines[0];
  if (first) {
    const total = lines
      .filter((l) => l.currency === first.currency)
      .reduce((s, l) => s + BigInt(l.debit || '0'), 0n);
    return money(total.toString(), first.currency, locale);
  }
  const p = z
    .object({ amountMinor: z.string().regex(/^\d+$/), currency: z.string().length(3) })
    .safeParse(payload);
  return p.success ? money(p.data.amountMinor, p.data.currency, locale) : null;
}

async function citedSpan(
  db: Db,
  orgId: string,
  c: Citation,
  printed: string | null,
): Promise<z.infer<typeof HighlightedCitationSchema>> {
  const [page, doc] = await Promise.all([
    loadPage(db, orgId, c.docId, c.page),
    getDocument(db, orgId, c.docId),
  ]);
  const h = page ? highlight(page, c, printed) : quoteOnly(c, printed);
  // The stored type decides whether the page is drawn from the file (a PDF) beside the text.
  return doc ? { ...h, mimeType: doc.mimeType } : h;
}

/**
 * The citations a qualitative answer rests on: for an extractive summary, the passages its
 * sentences were taken from (their quotes appear in the text); otherwise the first few.
 */
function answerCitations(text: string, citations: Citation[]): Citation[] {
  const flat = (t: string) => t.replace(/\s+/g, ' ').trim();
  const answer = flat(text);
  const quoted = citations.filter(
    (c) => flat(c.quote).length > 0 && answer.includes(flat(c.quote)),
  );
  return (quoted.length ? quoted : citations).slice(0, 6);
}

async function reviewItem(
  deps: InboxDeps,
  r: Awaited<ReturnType<typeof openReviewsIn>>[number],
  locale: string,
): Promise<InboxItem | null> {
  const state = await deps.analysis.state(r.orgId, r.requestId).catch(() => null);
  if (!state || state.status !== 'awaiting_review') return null;
  const answer = state.proposedAnswer;
  const claims = await Promise.all(
    (answer?.claims ?? []).map(async (cl: NumericClaim) => ({
      id: cl.id,
      label: cl.label,
      value: cl.value,
      unit: cl.unit,
      printed: cl.printed,
      ...(isCurrencyCode(cl.unit)
        ? { formatted: formatDecimalMoney(cl.value, cl.unit, locale) ?? undefined }
        : {}),
      citations: await Promise.all(
        cl.citations.map((c) => citedSpan(deps.db, r.orgId, c, cl.printed)),
      ),
    })),
  );
  // Cited spans of a qualitative answer (no numeric claim): shown without a marked number.
  const loose =
    claims.length === 0
      ? await Promise.all(
          answerCitations(answer?.text ?? '', answer?.citations ?? []).map((c) =>
            citedSpan(deps.db, r.orgId, c, null),
          ),
        )
      : [];
  const queryText = String((r.request as { queryText?: unknown }).queryText ?? '');
  return {
    kind: 'review',
    orgId: r.orgId,
    id: r.requestId,
    type: r.queryType,
    title: `${r.queryType} review`,
    subject: queryText || r.requestId,
    asked: queryText,
    // The first money claim is the amount the list shows and sorts by.
    amount:
      (answer?.claims ?? [])
        .map((cl) => decimalMoney(cl.value, cl.unit, locale))
        .find((m) => m !== null) ?? null,
    lane: null,
    assignee: 'reviewers',
    createdAt: iso(r.createdAt),
    dueAt: state.review.dueAt,
    expiresAt: state.review.expiresAt,
    decisionPath: `/v1/orgs/${encodeURIComponent(r.orgId)}/analyses/${encodeURIComponent(r.requestId)}/review`,
    decisions: ['approve', 'reject', 'correct'],
    plan: null,
    evidence: {
      risk: null,
      entries: [],
      payee: null,
      payload: null,
      fields: [],
      answer: answer?.text ?? null,
      reasons: state.validation?.reasons ?? [],
      claims: [
        ...claims,
        ...(loose.length
          ? [
              {
                id: 'citations',
                label: 'Cited passages',
                value: '',
                unit: '',
                printed: null,
                citations: loose,
              },
            ]
          : []),
      ],
    },
  };
}

/**
 * The amount an agent's request is about, from the evidence it was created with: minor units
 * (`amountMinor`) or a decimal (`amount`, `total`) beside a `currency`.
 */
export function requestAmount(evidence: unknown, locale: string): InboxItem['amount'] {
  const e = z
    .object({
      currency: z.string(),
      amountMinor: z
        .string()
        .regex(/^-?\d+$/)
        .optional(),
      amount: z.string().optional(),
      total: z.string().optional(),
    })
    .safeParse(evidence);
  if (!e.success || !isCurrencyCode(e.data.currency)) return null;
  if (e.data.amountMinor) return money(e.data.amountMinor, e.data.currency, locale);
  const decimal = e.data.amount ?? e.data.total;
  return decimal === undefined ? null : decimalMoney(decimal, e.data.currency, locale);
}

function requestItem(r: RequestInboxItem, locale: string): InboxItem {
  const form = AnswerSchemaSchema.safeParse(r.answerSchema);
  const by = r.createdBy.agentType
    ? `agent ${r.createdBy.agentType}`
    : (r.createdBy.userId ?? 'someone');
  return {
    kind: 'request',
    orgId: r.orgId,
    id: r.requestId,
    type: r.type,
    title: `${r.title} (${r.type})`,
    subject: r.title,
    asked: r.question,
    amount: requestAmount(r.evidence, locale),
    lane: null,
    assignee: r.assigneeUserId ?? 'admins',
    createdAt: r.createdAt,
    dueAt: r.dueAt,
    expiresAt: r.expiresAt,
    decisionPath: `/v1/orgs/${encodeURIComponent(r.orgId)}/requests/${encodeURIComponent(r.requestId)}/answer`,
    decisions: ['answer'],
    plan: null,
    evidence: {
      risk: null,
      entries: [],
      payee: null,
      payload: { askedBy: by, route: r.route, reminders: r.remindersSent, reasks: r.reasks },
      fields: form.success
        ? form.data.fields.map((f) => ({
            name: f.name,
            label: f.label,
            kind: f.kind,
            required: f.required,
            ...(f.kind === 'enum' ? { options: f.options } : {}),
            ...(f.kind === 'code_per_item' ? { items: f.items } : {}),
          }))
        : [],
      answer: null,
      reasons: [],
      claims: [],
    },
  };
}
