import {
  type Client,
  WorkflowExecutionAlreadyStartedError,
  type WorkflowHandle,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import {
  ANALYSIS_WORKFLOW,
  AnalysisRequestSchema,
  AnalysisResultSchema,
  analysisWorkflowId,
  reviewUpdate,
  stateQuery,
  analysisSettledUpdate,
  type AnalysisRequestInput,
  type AnalysisResult,
  type AnalysisStateView,
  type ReviewAck,
} from '../workflows/analysis.contract';
import { ReviewDecisionSchema, type ReviewDecisionInput } from '../workflows/analysis/review';
import { InvalidRequestError } from './errors';
import { loadConfig } from '../config/env';
import { decisionSecret } from '../activities/identity/decision-secret';
import { signDecisionProof } from '../activities/identity/secrets';
import { checkInputBounds } from '../workflows/input-bounds';
import { raceWithTimeout } from './gateway-client';
import { DEFAULT_TASK_QUEUE, domainTaskQueue } from '../workflows/task-queue';
import { CsOrg, CsQueryType, CsState } from '../workflows/search-attributes';

export class ReviewRefusedError extends Error {
  override readonly name = 'ReviewRefusedError';
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The typed client backend services use: start an analysis, read its state, send a review
 * decision, await the result. Requests are validated here first, so a malformed request
 * starts nothing.
 */
/** One line of at most n characters, for a Web UI summary. */
export function oneLine(text: string, n: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
}

export class AnalysisClient {
  constructor(
    private readonly client: Client,
    /** The deployment's base task queue; requests run on its analysis queue. */
    private readonly taskQueue: string = DEFAULT_TASK_QUEUE,
    private readonly opts: { decisionSecret?: string } = {},
  ) {}

  handle(orgId: string, requestId: string): WorkflowHandle {
    return this.client.workflow.getHandle(analysisWorkflowId(orgId, requestId));
  }

  /** Idempotent on (org, request id): starting the same request again returns the existing run. */
  async start(input: AnalysisRequestInput): Promise<{ workflowId: string; started: boolean }> {
    const bounds = checkInputBounds(input);
    if (!bounds.ok)
      throw new InvalidRequestError(
        `Invalid analysis request: ${bounds.issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`,
        bounds.issues,
      );
    const parsed = AnalysisRequestSchema.safeParse(input);
    if (!parsed.success) throw InvalidRequestError.fromZod('analysis request', parsed.error);
    const request = parsed.data;
    const workflowId = analysisWorkflowId(request.orgId, request.requestId);
    try {
      await this.client.workflow.start(ANALYSIS_WORKFLOW, {
        args: [request],
        taskQueue: domainTaskQueue(this.taskQueue, 'analysis'),
        workflowId,
        // One run per request id, ever: a finished request is not re-run by accident.
        workflowIdConflictPolicy: 'FAIL',
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        typedSearchAttributes: [
          { key: CsOrg, value: request.orgId },
          { key: CsQueryType, value: request.queryType },
          { key: CsState, value: 'RECEIVE_TASK' },
        ],
        memo: { queryText: request.queryText.slice(0, 500), docIds: request.docIds },
        // What the Web UI shows for the run before (and beside) its current details.
        staticSummary: `${request.queryType} · ${request.orgId}: ${oneLine(request.queryText, 120)}`,
        staticDetails: [
          `**Question** ${oneLine(request.queryText, 500)}`,
          `**Documents** ${request.docIds.join(', ')}`,
          ...(request.framework ? [`**Framework** ${request.framework}`] : []),
          `**Requested by** ${request.requestedBy ?? 'unknown'}`,
        ].join('\n\n'),
      });
      return { workflowId, started: true };
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError)
        return { workflowId, started: false };
      throw err;
    }
  }

  async state(orgId: string, requestId: string): Promise<AnalysisStateView> {
    return this.handle(orgId, requestId).query(stateQuery);
  }

  async result(orgId: string, requestId: string): Promise<AnalysisResult> {
    return AnalysisResultSchema.parse(await this.handle(orgId, requestId).result());
  }

  /** Waits until the run is delivered or waiting for a reviewer. */
  async settle(orgId: string, requestId: string, timeoutMs = 120_000): Promise<AnalysisStateView> {
    const deadline = Date.now() + timeoutMs;
    const handle = this.handle(orgId, requestId);
    for (;;) {
      const desc = await handle.describe();
      if (desc.status.name !== 'RUNNING') {
        if (desc.status.name === 'COMPLETED') return handle.query(stateQuery);
        await handle.result(); // throws the run's failure
      }
      const view = await handle.query(stateQuery).catch(() => null);
      if (view && (view.status === 'awaiting_review' || view.status === 'completed')) return view;
      if (Date.now() > deadline)
        throw new Error(`Analysis ${requestId} did not settle within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /**
   * Waits, without polling, until the run is delivered or waits for a reviewer: an Update the
   * workflow completes when it gets there. `null` when `waitMs` passed first. A run that ended
   * before the Update was taken answers from its state (a failed run throws its failure).
   */
  async awaitSettled(
    orgId: string,
    requestId: string,
    waitMs: number,
  ): Promise<AnalysisStateView | null> {
    const handle = this.handle(orgId, requestId);
    const settled = handle.executeUpdate(analysisSettledUpdate, { args: [] }).catch(async (err) => {
      const desc = await handle.describe();
      if (desc.status.name === 'RUNNING') throw err;
      if (desc.status.name !== 'COMPLETED') await handle.result(); // throws the run's failure
      return handle.query(stateQuery);
    });
    return raceWithTimeout(settled, waitMs);
  }

  /** Sends a reviewer's decision; refusals come back as ReviewRefusedError with the failure type. */
  async review(
    orgId: string,
    requestId: string,
    decision: ReviewDecisionInput,
  ): Promise<ReviewAck> {
    const parsed = ReviewDecisionSchema.safeParse(decision);
    if (!parsed.success) throw InvalidRequestError.fromZod('review decision', parsed.error);
    // Whoever holds this client authenticated the reviewer: sign a proof for exactly this
    // decision (short-lived), which the worker verifies.
    const proof = signDecisionProof(this.opts.decisionSecret ?? decisionSecret(loadConfig()), {
      purpose: 'review',
      orgId,
      subjectId: analysisWorkflowId(orgId, requestId),
      userId: parsed.data.reviewer.userId,
      decision: parsed.data.decision,
    });
    try {
      return await this.handle(orgId, requestId).executeUpdate(reviewUpdate, {
        args: [{ ...parsed.data, proof }],
      });
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
        throw new ReviewRefusedError(err.cause.type ?? 'ReviewRefused', err.cause.message);
      }
      if (err instanceof WorkflowNotFoundError) {
        throw new ReviewRefusedError(
          'ReviewNotOpen',
          `No open review for ${requestId}: ${err.message}`,
        );
      }
      throw err;
    }
  }
}
