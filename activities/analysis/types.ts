import type { AnalysisRequest } from '../../workflows/analysis/request';
import type { AnalysisResult } from '../../workflows/analysis.contract';
import type { ReviewDecision } from '../../workflows/analysis/review';

/** Inputs of the analysis bookkeeping activities (tools take their registry inputs). */
export interface ReceiveRequestInput {
  request: AnalysisRequest;
  workflowId: string;
}
export interface ReceivedDocument {
  id: string;
  title: string;
  docType: string | null;
  pageCount: number;
}
export interface AuditInput {
  orgId: string;
  subjectType: string;
  subjectId: string;
  event: string;
  /** Unique per workflow and step: a retried activity writes its row once. */
  idempotencyKey: string;
  actor: string;
  payload: unknown;
}
export interface AuthorizeReviewerInput {
  orgId: string;
  userId: string;
}
export interface RecordDecisionInput {
  requestId: string;
  orgId: string;
  decision: ReviewDecision;
  decidedAt: string;
}
export interface StoreResultInput {
  result: AnalysisResult;
}
export interface ReminderInput {
  orgId: string;
  requestId: string;
  workflowId: string;
  reminderNumber: number;
  dueAt: string;
}
