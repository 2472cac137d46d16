import { createHash, randomUUID } from 'node:crypto';
import {
  ApplicationFailure,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  type Client,
} from '@temporalio/client';
import type { Db } from '../db/connection';
import {
  countWithDedupKey,
  getRequestRow,
  inboxRows,
  recentDuplicate,
  requestEvents,
  type RequestRow,
} from '../db/repositories/requests';
import {
  AnswerInputSchema,
  CreateRequestSchema,
  REQUEST_WORKFLOW,
  answerRequestUpdate,
  requestStoredUpdate,
  failRequestUpdate,
  requestWorkflowId,
  type AnswerAck,
  type AnswerInput,
  type CreateRequestInput,
  type RequestWorkflowInput,
} from '../workflows/requests/contract';
import { dedupWindowMs } from '../workflows/requests/loop-defences';
import { AnalysisClient, ReviewRefusedError } from './analysis-client';
import { InvalidRequestError } from './errors';
import { ApprovalRefusedError, GatewayClient } from './gateway-client';
import { DEFAULT_TASK_QUEUE, domainTaskQueue } from '../workflows/task-queue';
import { CsOrg, CsState } from '../workflows/search-attributes';

// The refusal and the created request are the requests domain's contract (activities use them).
export { AnswerRefusedError, type CreatedRequest } from '../workflows/requests/entry-point';
import { AnswerRefusedError, type CreatedRequest } from '../workflows/requests/entry-point';

/** One inbox item: an agent's request, a gateway approval or an analysis review. */
export interface InboxItem {
  requestId: string;
  orgId: string;
  type: string;
  title: string;
  question: string;
  answerSchema: unknown;
  /** What the agent attached when it asked (ids, amounts); shown beside the question. */
  evidence: unknown;
  source: 'request' | 'gateway_approval' | 'analysis_review';
  linkKey: string | null;
  route: string | null;
  /** The assignee the route chose (null: any admin or owner of the org). */
  assigneeUserId: string | null;
  createdAt: string;
  dueAt: string;
  expiresAt: string;
  remindersSent: number;
  reasks: number;
  createdBy: { runId: string | null; agentType: string | null; userId: string | null };
}

const toItem = (r: RequestRow): InboxItem => ({
  requestId: r.id,
  orgId: r.orgId,
  type: r.type,
  title: r.title,
  question: r.question,
  answerSchema: r.answerSchema,
  evidence: r.evidence,
  source: (r.linkKind as InboxItem['source'] | null) ?? 'request',
  linkKey: r.linkKey,
  route: r.route,
  assigneeUserId: r.assigneeUserId,
  createdAt: r.createdAt.toISOString(),
  dueAt: r.dueAt.toISOString(),
  expiresAt: r.expiresAt.toISOString(),
  remindersSent: r.remindersSent,
  reasks: r.reasks,
  createdBy: {
    runId: r.createdByRunId,
    agentType: r.createdByAgentType,
    userId: r.createdByUserId,
  },
});

/**
 * Human requests for the CLI, the API, tests and other agents' code: create one (validated
 * here first: a malformed request starts nothing), answer one (forwarded to the gateway's
 * approval or the analysis review when the item is one of theirs), read one, list an inbox.
 */
export class RequestsClient {
  constructor(
    private readonly client: Client,
    private readonly db: Db,
    private readonly opts: { taskQueue?: string; decisionSecret?: string } = {},
  ) {}

  async createRequest(raw: CreateRequestInput, nowMs = Date.now()): Promise<CreatedRequest> {
    const parsed = CreateRequestSchema.safeParse(raw);
    if (!parsed.success) throw InvalidRequestError.fromZod('request', parsed.error);
    const r = parsed.data;
    if (r.dedupKey) {
      // Identical requests are one: while open, or (configuration) within an hour of the first.
      const window = dedupWindowMs(r.type);
      const prev = await recentDuplicate(this.db, {
        orgId: r.orgId,
        type: r.type,
        dedupKey: r.dedupKey,
        since: new Date(window === null ? 0 : nowMs - window),
      });
      if (prev && (window !== null || prev.status === 'open'))
        return { requestId: prev.id, workflowId: prev.workflowId, deduplicated: true };
    }
    // With a dedup key the id is derived from it, so two identical requests sent at the same
    // moment start one workflow (USE_EXISTING) even before either row is stored.
    const requestId =
      r.requestId ??
      (r.dedupKey
        ? `hr_d_${createHash('sha256').update(`${r.orgId}\n${r.type}\n${r.dedupKey}`).digest('hex').slice(0, 24)}_${await countWithDedupKey(this.db, r.orgId, r.type, r.dedupKey)}`
        : `hr_${randomUUID().replace(/-/g, '')}`);
    const workflowId = requestWorkflowId(r.orgId, requestId);
    const input: RequestWorkflowInput = { request: { ...r, requestId }, createdAtMs: nowMs };
    let handle;
    try {
      handle = await this.client.workflow.start(REQUEST_WORKFLOW, {
        args: [input],
        taskQueue: domainTaskQueue(this.opts.taskQueue ?? DEFAULT_TASK_QUEUE, 'requests'),
        workflowId,
        // A request id names one request forever: a second start of it — open or closed — is
        // the same request (a retried activity, an identical request sent at the same moment).
        workflowIdConflictPolicy: 'FAIL',
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        typedSearchAttributes: [
          { key: CsOrg, value: r.orgId },
          { key: CsState, value: 'open' },
        ],
      });
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError)
        return { requestId, workflowId, deduplicated: true };
      throw err;
    }
    // Read-your-writes: return once the row is stored and routed, not merely started.
    await handle.executeUpdate(requestStoredUpdate);
    return { requestId, workflowId, deduplicated: false };
  }

  /**
   * Answers a request. An agent's request gets the request workflow's Update; a gateway
   * approval or an analysis review is forwarded to that workflow's own Update (approve /
   * reject, with the same validation and a decision proof signed here for this person).
   */
  async answerRequest(raw: AnswerInput): Promise<AnswerAck> {
    const parsed = AnswerInputSchema.safeParse(raw);
    if (!parsed.success) throw InvalidRequestError.fromZod('answer', parsed.error);
    const a = parsed.data;
    const row = await getRequestRow(this.db, a.requestId);
    if (row && row.orgId !== a.orgId)
      throw new AnswerRefusedError('RequestNotOpen', `no request ${a.requestId} in ${a.orgId}`);
    if (row?.linkKind) return this.forward(row, a);
    try {
      // A request just created may not be stored yet: its workflow id is its (org, id).
      return await this.client.workflow
        .getHandle(row?.workflowId ?? requestWorkflowId(a.orgId, a.requestId))
        .executeUpdate(answerRequestUpdate, { args: [a] });
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure)
        throw new AnswerRefusedError(err.cause.type ?? 'AnswerRefused', err.cause.message);
      if (err instanceof WorkflowNotFoundError)
        throw new AnswerRefusedError(
          'RequestNotOpen',
          // Neither stored nor running: it never existed in this org (the API answers 404).
          row ? `request ${a.requestId} is closed` : `no request ${a.requestId} in ${a.orgId}`,
        );
      throw err;
    }
  }

  private async forward(row: RequestRow, a: AnswerInput): Promise<AnswerAck> {
    if (row.status !== 'open')
      throw new AnswerRefusedError('RequestNotOpen', `request ${row.id} is ${row.status}`);
    if (a.answer === undefined)
      throw new AnswerRefusedError(
        'InvalidAnswer',
        `${row.type} ${row.id} is decided with a structured answer ({ decision, note })`,
      );
    const decision = a.answer.decision;
    const note = typeof a.answer.note === 'string' ? a.answer.note : undefined;
    if (decision !== 'approve' && decision !== 'reject')
      throw new AnswerRefusedError('InvalidAnswer', 'decision: approve or reject');
    const key = row.linkKey ?? '';
    try {
      if (row.linkKind === 'gateway_approval') {
        // An approval names the plan it was shown, as the API's decisions route does.
        const { revision, planHash } = a.answer;
        if (typeof revision !== 'number' || typeof planHash !== 'string')
          throw new AnswerRefusedError(
            'InvalidAnswer',
            `${row.id} approves a plan: the answer names its revision and planHash (gateway show)`,
          );
        await new GatewayClient(this.client, this.db, this.opts.taskQueue, this.secretOpt()).decide(
          row.orgId,
          key,
          {
            decision,
            approver: { userId: a.answeredBy, orgId: a.orgId },
            revision,
            planHash,
            ...(note ? { note } : {}),
          },
        );
      } else {
        await new AnalysisClient(this.client, this.opts.taskQueue, this.secretOpt()).review(
          row.orgId,
          key,
          {
            decision,
            reviewer: { userId: a.answeredBy, orgId: a.orgId },
            ...(note ? { note } : {}),
          },
        );
      }
    } catch (err) {
      if (err instanceof ApprovalRefusedError || err instanceof ReviewRefusedError)
        throw new AnswerRefusedError(err.type, err.message);
      throw err;
    }
    return {
      status: 'answered',
      requestId: row.id,
      answer: { decision, ...(note ? { note } : {}) },
      reason: null,
      parsedBy: 'structured',
    };
  }

  private secretOpt(): { decisionSecret?: string } {
    return this.opts.decisionSecret ? { decisionSecret: this.opts.decisionSecret } : {};
  }

  /** The stored request with its history (opened with the route, reminders, re-asks, answer). */
  async getRequest(orgId: string, requestId: string) {
    const row = await getRequestRow(this.db, requestId);
    if (!row || row.orgId !== orgId) return null;
    return { ...row, events: await requestEvents(this.db, requestId) };
  }

  /** A person's open items in one org: agent requests, gateway approvals, analysis reviews. */
  async listInbox(q: { orgId: string; userId: string }): Promise<InboxItem[]> {
    return (await inboxRows(this.db, q.orgId, q.userId)).map(toItem);
  }

  /** Closes an open request as failed (no answer), with the reason recorded. */
  async failRequest(orgId: string, requestId: string, reason: string, by: string) {
    return this.client.workflow
      .getHandle(requestWorkflowId(orgId, requestId))
      .executeUpdate(failRequestUpdate, { args: [{ reason, by }] });
  }

  /** The request's result once it closes (completed, expired). */
  async result(orgId: string, requestId: string) {
    return this.client.workflow.getHandle(requestWorkflowId(orgId, requestId)).result();
  }
}

/**
 * The CLI's `decide` arguments as an answer: --decision (approve/reject, with --note) for an
 * approval or review, --answer JSON for a form, --text for free text (read strictly).
 */
export function cliAnswer(
  requestId: string,
  orgId: string,
  userId: string,
  a: {
    decision?: string;
    note?: string;
    revision?: number;
    planHash?: string;
    answer?: string;
    text?: string;
  },
): AnswerInput {
  const base = { requestId, orgId, answeredBy: userId };
  if (a.text !== undefined) return { ...base, text: a.text };
  if (a.answer !== undefined) {
    let answer: unknown;
    try {
      answer = JSON.parse(a.answer);
    } catch {
      throw new InvalidRequestError('--answer is not JSON', [{ path: 'answer', message: 'JSON' }]);
    }
    return { ...base, answer: answer as Record<string, unknown> };
  }
  if (a.decision === undefined)
    throw new InvalidRequestError('one of --decision, --answer or --text is required', [
      { path: 'decision', message: 'required' },
    ]);
  return {
    ...base,
    answer: {
      decision: a.decision,
      ...(a.note ? { note: a.note } : {}),
      ...(a.revision !== undefined ? { revision: a.revision } : {}),
      ...(a.planHash !== undefined ? { planHash: a.planHash } : {}),
    },
  };
}
