/**
 * The state of one gateway run, in one object: what its handlers and phases read and change.
 * Created from the write and, for a continued run, the state carried over, exactly as a run
 * starts; the handlers read it live, so every later change is seen.
 */
import { workflowInfo } from '@temporalio/workflow';
import type {
  EntryPreview,
  GatewayCarryOver,
  GatewayResult,
  GatewayStateView,
  PayeeView,
  ResumeRequest,
  RiskAssessmentView,
  SuspensionRecord,
  Vote,
} from '../gateway.contract';
import { DEFAULT_APPROVAL_DUE_MS, DEFAULT_APPROVAL_EXPIRE_MS, type GatewayWrite } from './writes';
import type { GatewayProxy } from './activity-proxies';

export interface GatewayRunState {
  // Fixed for the run.
  readonly write: GatewayWrite;
  /** A run continued from an earlier one of this submission: its state, not a new evaluation. */
  readonly carry: GatewayCarryOver | null;
  readonly workflowId: string;
  readonly runId: string;
  /** The submission is the workflow id. */
  readonly submissionId: string;
  /** Neither the submitting user nor an agent's operator may sign their own write. */
  readonly selfIds: ReadonlySet<string>;
  /** The approval window, from the write or the defaults. */
  readonly dueAfter: number;
  readonly expireAfter: number;

  // What the state query shows.
  status: GatewayStateView['status'];
  risk: RiskAssessmentView | null;
  preview: EntryPreview[];
  payee: PayeeView | null;
  revision: number;
  planHash: string | null;
  /** Every vote of the submission, on any plan revision. */
  readonly votes: Vote[];
  result: GatewayResult | null;
  startedAt: number;
  dueAt: number;
  expiresAt: number;

  // The vote.
  /** Approvers whose vote is past its validator and not yet recorded. */
  readonly inFlight: Set<string>;
  /** Set while a waiting run drains its votes before continuing as new. */
  handingOver: boolean;
  remindersSent: number;
  /** A continued run resumes the wait its predecessor left: inbox entry open, reminder counted. */
  resuming: boolean;
  /** History events per run before the wait continues as new (read once, when first waiting). */
  historyLimit: number | null;

  // Outages.
  suspended: { step: string; error: string } | null;
  resumeRequested: boolean;
  resumedBy: ResumeRequest | null;
  suspensions: number;
  /** Suspensions (with their resumes) not yet on the database: recorded before the next try. */
  readonly unrecorded: SuspensionRecord[];

  /** journal.post_batch: the high-risk entries sent to submissions of their own. */
  readonly splitOut: { entryKey: string; submissionId: string }[];
  /** Whether this run shows its lane as a search attribute (patch read once, after scoring). */
  laneAttribute: boolean;
  /** The database steps: set by the run's first await, before any vote can be handled. */
  db: GatewayProxy | null;
}

export function createGatewayRunState(
  write: GatewayWrite,
  carry: GatewayCarryOver | null,
): GatewayRunState {
  const { workflowId, runId } = workflowInfo();
  const submitter = write.submitter;
  const startedAt = carry?.startedAt ?? Date.now();
  const dueAfter = write.approval?.dueAfterMs ?? DEFAULT_APPROVAL_DUE_MS;
  const expireAfter = write.approval?.expireAfterMs ?? DEFAULT_APPROVAL_EXPIRE_MS;
  return {
    write,
    carry,
    workflowId,
    runId,
    submissionId: workflowId,
    selfIds: new Set(submitter.kind === 'user' ? [submitter.userId] : [submitter.operatorUserId]),
    dueAfter,
    expireAfter,

    status: 'evaluating',
    risk: carry?.risk ?? null,
    preview: carry?.preview ?? [],
    payee: carry?.payee ?? null,
    revision: carry?.revision ?? 0,
    planHash: carry?.planHash ?? null,
    votes: [...(carry?.votes ?? [])],
    result: null,
    startedAt,
    dueAt: carry?.dueAt ?? startedAt + dueAfter,
    expiresAt: carry?.expiresAt ?? startedAt + expireAfter,

    inFlight: new Set<string>(),
    handingOver: false,
    remindersSent: carry?.remindersSent ?? 0,
    resuming: carry !== null,
    historyLimit: null,

    suspended: null,
    resumeRequested: false,
    resumedBy: null,
    suspensions: carry?.suspensions ?? 0,
    unrecorded: [],

    splitOut: [...(carry?.splitOut ?? [])],
    laneAttribute: false,
    db: null,
  };
}

/** The submission as the state query (and the settled update) show it, read now. */
export function gatewayStateView(state: GatewayRunState): GatewayStateView {
  const { risk } = state;
  return {
    submissionId: state.submissionId,
    orgId: state.write.orgId,
    kind: state.write.kind,
    status: state.status,
    risk,
    preview: state.preview,
    payee: state.payee,
    revision: state.revision,
    planHash: state.planHash,
    votes: [...state.votes],
    suspended: state.suspended,
    dueAt: risk && risk.lane !== 'low' ? new Date(state.dueAt).toISOString() : null,
    expiresAt: risk && risk.lane !== 'low' ? new Date(state.expiresAt).toISOString() : null,
    result: state.result,
  };
}
