import { z } from 'zod';
import type { Db } from '../../db/connection';
import { loadPage } from '../../db/repositories/documents';
import { membershipsOf, openApprovalsFor, openReviewsIn } from '../../db/repositories/inbox';
import type { GatewayClient } from '../../client/gateway-client';
import type { AnalysisClient } from '../../client/analysis-client';
import type { RequestsClient, InboxItem as RequestInboxItem } from '../../client/requests-client';
import { AnswerSchemaSchema } from '../../workflows/requests/answer-schema';
import { FactRefSchema, type Citation, type NumericClaim } from '../../workflows/analysis/evidence';
import { ACTIONS } from '../authz';

/**
 * One person's task list: the approvals they may sign and the reviews they may decide, across
 * every org they belong to, each with the evidence a decision needs — the proposed ledger
 * entries and the risk rules that fired, or the proposed answer with each cited span of page
 * text and the number in it marked.
 */
export const HighlightedCitationSchema = z.object({
  docId: z.string(),
  page: z.number().int(),
  /** Page text around the cited span, split where the claimed number is. */
  before: z.string(),
  match: z.string(),
  after: z.string(),
  /** The inline XBRL fact the marked number is (its concept, period and id), when it is one. */
  fact: FactRefSchema.optional(),
});
export type HighlightedCitation = z.infer<typeof HighlightedCitationSchema>;

export const InboxItemSchema = z.object({
  kind: z.enum(['approval', 'review', 'request']),
  orgId: z.string(),
  /** The idempotency key (approval), request id (review) or human request id. */
  id: z.string(),
  title: z.string(),
  asked: z.string(),
  createdAt: z.string().nullable(),
  dueAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  /** Where the decision goes (the same route as the API's). */
  decisionPath: z.string(),
  decisions: z.array(z.string()),
  evidence: z.object({
    risk: z
      .object({
        score: z.number(),
        lane: z.string(),
        requiredApprovals: z.number(),
        approvals: z.number(),
        rules: z.array(z.object({ rule: z.string(), lane: z.string(), detail: z.string() })),
      })
      .nullable(),
    entries: z.array(
      z.object({
        entryDate: z.string(),
        memo: z.string(),
        lines: z.array(
          z.object({
            accountId: z.string(),
            currency: z.string(),
            debit: z.string(),
            credit: z.string(),
          }),
        ),
      }),
    ),
    payee: z.record(z.string(), z.unknown()).nullable(),
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
        citations: z.array(HighlightedCitationSchema),
      }),
    ),
  }),
});
export type InboxItem = z.infer<typeof InboxItemSchema>;

const CONTEXT_CHARS = 240;

/** The cited span with some page text around it, the claimed number marked inside it. */
export function highlight(
  pageText: string,
  c: Citation,
  printed: string | null,
): HighlightedCitation {
  const start = Math.max(0, c.charStart - CONTEXT_CHARS);
  const end = Math.min(pageText.length, c.charEnd + CONTEXT_CHARS);
  const spanText = pageText.slice(c.charStart, c.charEnd) || c.quote;
  const at = printed ? spanText.indexOf(printed) : -1;
  const [mStart, mEnd] =
    at >= 0
      ? [c.charStart + at, c.charStart + at + (printed as string).length]
      : [c.charStart, c.charEnd];
  return {
    docId: c.docId,
    page: c.page,
    before: pageText.slice(start, mStart),
    match: pageText.slice(mStart, mEnd),
    after: pageText.slice(mEnd, end),
    ...(c.fact ? { fact: c.fact } : {}),
  };
}

export interface InboxDeps {
  db: Db;
  gateway: GatewayClient;
  analysis: AnalysisClient;
  requests: RequestsClient;
}

/** The person's tasks in the org their key was issued for (a key acts in that org only). */
export async function inboxFor(
  deps: InboxDeps,
  userId: string,
  keyOrgId: string,
): Promise<InboxItem[]> {
  const orgs = (await membershipsOf(deps.db, userId)).filter((o) => o.orgId === keyOrgId);
  const canApprove = orgs
    .filter((o) => o.roles.some((r) => (ACTIONS.approve_write as readonly string[]).includes(r)))
    .map((o) => o.orgId);
  const canReview = orgs
    .filter((o) => o.roles.some((r) => (ACTIONS.review_analysis as readonly string[]).includes(r)))
    .map((o) => o.orgId);
  const [approvals, reviews, requests] = await Promise.all([
    openApprovalsFor(deps.db, userId, canApprove),
    openReviewsIn(deps.db, canReview),
    // Agents' requests routed to this person (approvals and reviews are listed above, with
    // their evidence, so the requests' copies of them are left out here).
    Promise.all(orgs.map((o) => deps.requests.listInbox({ orgId: o.orgId, userId }))).then((l) =>
      l.flat().filter((r) => r.source === 'request'),
    ),
  ]);
  const items = await Promise.all([
    ...approvals.map((a) => approvalItem(deps, a)),
    ...reviews.map((r) => reviewItem(deps, r)),
    ...requests.map((r) => Promise.resolve(requestItem(r))),
  ]);
  return items
    .filter((i): i is InboxItem => i !== null)
    .sort((a, b) => (a.dueAt ?? '9999').localeCompare(b.dueAt ?? '9999'));
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

async function approvalItem(
  deps: InboxDeps,
  a: Awaited<ReturnType<typeof openApprovalsFor>>[number],
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
  return {
    kind: 'approval',
    orgId: a.orgId,
    id: a.idempotencyKey,
    title: `${a.kind} — ${state.risk?.lane ?? a.lane} risk`,
    asked: `Approve or reject ${a.kind} "${a.idempotencyKey}" submitted by ${by} in ${a.orgId}`,
    createdAt: iso(a.createdAt),
    dueAt: state.dueAt ?? iso(a.dueAt),
    expiresAt: state.expiresAt ?? iso(a.expiresAt),
    decisionPath: `/v1/orgs/${encodeURIComponent(a.orgId)}/writes/${encodeURIComponent(a.idempotencyKey)}/decisions`,
    decisions: ['approve', 'reject'],
    evidence: {
      risk: state.risk
        ? {
            score: state.risk.score,
            lane: state.risk.lane,
            requiredApprovals: state.risk.requiredApprovals,
            approvals,
            rules: state.risk.rules.map((r) => ({ rule: r.rule, lane: r.lane, detail: r.detail })),
          }
        : null,
      entries: state.preview.map((e) => ({
        entryDate: e.entryDate,
        memo: e.memo,
        lines: e.lines.map((l) => ({
          accountId: l.accountId,
          currency: l.currency,
          debit: l.debit,
          credit: l.credit,
        })),
      })),
      payee: state.payee,
      payload: null,
      fields: [],
      answer: null,
      reasons: [],
      claims: [],
    },
  };
}

async function reviewItem(
  deps: InboxDeps,
  r: Awaited<ReturnType<typeof openReviewsIn>>[number],
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
      citations: await Promise.all(
        cl.citations.map(async (c) => {
          const page = await loadPage(deps.db, r.orgId, c.docId, c.page);
          return highlight(
            page ?? c.quote,
            page ? c : { ...c, charStart: 0, charEnd: c.quote.length },
            cl.printed,
          );
        }),
      ),
    })),
  );
  // Cited spans of a qualitative answer (no numeric claim): shown without a marked number.
  const loose =
    claims.length === 0
      ? await Promise.all(
          (answer?.citations ?? []).slice(0, 5).map(async (c) => {
            const page = await loadPage(deps.db, r.orgId, c.docId, c.page);
            return highlight(
              page ?? c.quote,
              page ? c : { ...c, charStart: 0, charEnd: c.quote.length },
              null,
            );
          }),
        )
      : [];
  const queryText = String((r.request as { queryText?: unknown }).queryText ?? '');
  return {
    kind: 'review',
    orgId: r.orgId,
    id: r.requestId,
    title: `${r.queryType} review`,
    asked: queryText,
    createdAt: iso(r.createdAt),
    dueAt: state.review.dueAt,
    expiresAt: state.review.expiresAt,
    decisionPath: `/v1/orgs/${encodeURIComponent(r.orgId)}/analyses/${encodeURIComponent(r.requestId)}/review`,
    decisions: ['approve', 'reject', 'correct'],
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

function requestItem(r: RequestInboxItem): InboxItem {
  const form = AnswerSchemaSchema.safeParse(r.answerSchema);
  const by = r.createdBy.agentType
    ? `agent ${r.createdBy.agentType}`
    : (r.createdBy.userId ?? 'someone');
  return {
    kind: 'request',
    orgId: r.orgId,
    id: r.requestId,
    title: `${r.title} (${r.type})`,
    asked: r.question,
    createdAt: null,
    dueAt: r.dueAt,
    expiresAt: r.expiresAt,
    decisionPath: `/v1/orgs/${encodeURIComponent(r.orgId)}/requests/${encodeURIComponent(r.requestId)}/answer`,
    decisions: ['answer'],
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
