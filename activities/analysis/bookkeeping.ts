import { log } from '@temporalio/activity';
import type { Db } from '../../db/connection';
import { appendAudit } from '../../db/repositories/audit';
import { getDocuments } from '../../db/repositories/documents';
import { organizationExists, hasAnyRole } from '../../db/repositories/organizations';
import { recordDecision, recordRequest, storeResult } from '../../db/repositories/analysis';
import { ErrorType, permanentFailure } from '../../workflows/errors';
import type {
  AuditInput,
  AuthorizeReviewerInput,
  ReceiveRequestInput,
  ReceivedDocument,
  RecordDecisionInput,
  ReminderInput,
} from './types';
import type { AnalysisResult } from '../../workflows/analysis.contract';

/** Activities that record the run: request row, audit trail, results, review decisions. */
export function createBookkeepingActivities(db: Db) {
  return {
    /** Checks the org and every document (ingested, same org) and records the request once. */
    async receiveRequest({
      request,
      workflowId,
    }: ReceiveRequestInput): Promise<ReceivedDocument[]> {
      if (!(await organizationExists(db, request.orgId))) {
        throw permanentFailure(
          ErrorType.UnknownOrganization,
          `Unknown organization "${request.orgId}"`,
        );
      }
      const docs = await getDocuments(db, request.orgId, request.docIds);
      const missing = request.docIds.filter((id) => !docs.some((d) => d.id === id));
      if (missing.length > 0) {
        throw permanentFailure(
          ErrorType.UnknownDocument,
          `Unknown document id(s) in org ${request.orgId}: ${missing.join(', ')}`,
        );
      }
      const notReady = docs.filter((d) => d.status !== 'ready');
      if (notReady.length > 0) {
        throw permanentFailure(
          ErrorType.DocumentNotReady,
          `Document(s) not ingested: ${notReady.map((d) => `${d.id} (${d.status}${d.error ? `: ${d.error}` : ''})`).join(', ')}`,
        );
      }
      await recordRequest(db, {
        requestId: request.requestId,
        orgId: request.orgId,
        workflowId,
        queryType: request.queryType,
        request,
      });
      return docs.map((d) => ({
        id: d.id,
        title: d.title,
        docType: d.docType,
        pageCount: d.pageCount ?? 0,
      }));
    },

    /** Appends one audit row per (workflow, step) key. */
    async recordAudit(input: AuditInput): Promise<void> {
      await appendAudit(db, input);
    },

    /** Review is scoped to the org: the reviewer must hold reviewer, admin or owner there. */
    async authorizeReviewer({ orgId, userId }: AuthorizeReviewerInput): Promise<void> {
      if (!(await hasAnyRole(db, orgId, userId, ['reviewer', 'admin', 'owner']))) {
        throw permanentFailure(
          ErrorType.ReviewerNotAuthorized,
          `User ${userId} may not review in org ${orgId}`,
        );
      }
    },

    async recordReviewDecision({
      requestId,
      orgId,
      decision,
      decidedAt,
    }: RecordDecisionInput): Promise<void> {
      await recordDecision(db, {
        requestId,
        orgId,
        decision: decision.decision,
        reviewerId: decision.reviewer.userId,
        note: decision.note ?? null,
        corrections: decision.corrections,
        decidedAt: new Date(decidedAt),
      });
    },

    /** Stores the output beside its validation; the awaiting-review row is replaced by the final one. */
    async storeResult({
      result,
      outcome,
    }: {
      result: AnalysisResult;
      outcome: string;
    }): Promise<void> {
      await storeResult(db, {
        requestId: result.requestId,
        orgId: result.orgId,
        outcome,
        confidence: result.confidence,
        result,
        validation: result.validation,
        decision: result.reviewedBy
          ? { reviewer: result.reviewedBy, note: result.reviewNote }
          : null,
      });
    },

    /** Reminds the org's reviewers that a review is due; recorded once per reminder number. */
    async sendReviewReminder(input: ReminderInput): Promise<void> {
      const written = await appendAudit(db, {
        orgId: input.orgId,
        subjectType: 'analysis',
        subjectId: input.workflowId,
        event: 'review.reminder',
        idempotencyKey: `${input.workflowId}:review.reminder:${input.reminderNumber}`,
        actor: 'workflow',
        payload: input,
      });
      if (written) log.info('review reminder', { ...input });
    },
  };
}
