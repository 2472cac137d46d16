import {
  type Client,
  WorkflowExecutionAlreadyStartedError,
  WorkflowFailedError,
  type WorkflowHandle,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Db } from '../db/connection';
import {
  changesByAgentInstance,
  getSubmission,
  type AgentChange,
} from '../db/repositories/gateway';
import { rolesInOrg } from '../db/repositories/organizations';
import { APPROVING_ROLES } from '../workflows/gateway/decision-claims';
import { trialBalance, type TrialBalance } from '../db/repositories/ledger';
import { dryRunWrite, type DryRunResult } from '../activities/gateway/evaluate';
import {
  ApprovalDecisionSchema,
  CsWriteKind,
  GATEWAY_WORKFLOW,
  GatewayResultSchema,
  approvalUpdate,
  gatewayStateQuery,
  gatewaySettledUpdate,
  gatewayWorkflowId,
  parseWrite,
  type ApprovalAck,
  type ApprovalDecision,
  type GatewayResult,
  type GatewayStateView,
} from '../workflows/gateway.contract';
import type { WriteIssue } from '../workflows/gateway/writes';
import { InvalidRequestError } from './errors';
import { NON_RETRYABLE_ERROR_TYPES } from '../workflows/errors';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../config/env';
import { writeDigest } from '../activities/gateway/plan-hash';
import { decisionSecret } from '../activities/identity/decision-secret';
import { APPROVAL_PROOF_TTL_MS, signDecisionProof } from '../activities/identity/secrets';
import { checkInputBounds } from '../workflows/input-bounds';
import { resumeUpdate, type ResumeRequest } from '../workflows/gateway.contract';
import { DEFAULT_TASK_QUEUE, domainTaskQueue } from '../workflows/task-queue';
import { CsOrg, CsState } from '../workflows/search-attributes';

/** A vote that meets a submission between two runs is sent again, this many times at most. */
const HANDOVER_ATTEMPTS = 10;

/** The gateway refused a write (unknown entity, not permitted, closed period, ...): nothing changed. */
export class WriteRefusedError extends Error {
  override readonly name: string = 'WriteRefusedError';
  constructor(
    readonly type: string,
    message: string,
    readonly issues: WriteIssue[],
  ) {
    super(message);
  }
}

/** An approval or rejection the workflow did not accept (self-approval, other org, double vote, ...). */
export class ApprovalRefusedError extends Error {
  override readonly name = 'ApprovalRefusedError';
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

/** The idempotency key already names a different write (other payload, kind or submitter). */
export class IdempotencyConflictError extends WriteRefusedError {
  override readonly name: string = 'IdempotencyConflictError';
  constructor(message: string) {
    super('IdempotencyConflict', message, [
      { path: 'idempotencyKey', message: 'already used for a different write' },
    ]);
  }
}

export interface SubmitResult {
  submissionId: string;
  workflowId: string;
  /** This call started the submission. */
  started: boolean;
  /** The same write was already submitted under this key: this call joined it. */
  joined: boolean;
}

/**
 * The gateway's verdict inside a failed run: a typed refusal (one of the platform's error
 * types). Anything else — an outage the run could not outlast, a bug — is not a verdict on the
 * write and is thrown as it came, so a caller never reads a database error as "refused".
 */
export function refusalFrom(err: unknown): WriteRefusedError | undefined {
  if (!(err instanceof WorkflowFailedError)) return undefined;
  let c: unknown = err.cause;
  for (let i = 0; i < 3 && c; i++) {
    if (c instanceof ApplicationFailure && isRefusalType(c.type)) {
      const details = (c.details?.[0] ?? {}) as { issues?: WriteIssue[] };
      return new WriteRefusedError(c.type, c.message, details.issues ?? []);
    }
    c = (c as { cause?: unknown }).cause;
  }
  return undefined;
}

function isRefusalType(type: string | undefined | null): type is string {
  return !!type && (NON_RETRYABLE_ERROR_TYPES as string[]).includes(type);
}

/**
 * The one way to change the books or master data. Users, services and agents submit here;
 * each submission is a gatewayWorkflow run, keyed by (org, idempotency key).
 */
export class GatewayClient {
  constructor(
    private readonly client: Client,
    private readonly db: Db,
    /** The deployment's base task queue; submissions run on its gateway queue. */
    private readonly taskQueue: string = DEFAULT_TASK_QUEUE,
    private readonly opts: { decisionSecret?: string } = {},
  ) {}

  private secret(): string {
    return this.opts.decisionSecret ?? decisionSecret(loadConfig());
  }

  handle(orgId: string, idempotencyKey: string): WorkflowHandle {
    return this.client.workflow.getHandle(gatewayWorkflowId(orgId, idempotencyKey));
  }

  /** Dry run: validation, risk, lane and the entries it would post; no workflow, no writes. */
  submit(write: unknown, opts: { dryRun: true }): Promise<DryRunResult>;
  submit(write: unknown, opts?: { dryRun?: false }): Promise<SubmitResult>;
  async submit(
    write: unknown,
    opts: { dryRun?: boolean } = {},
  ): Promise<SubmitResult | DryRunResult> {
    if (opts.dryRun) return dryRunWrite(this.db, write);
    const bounds = checkInputBounds(write);
    if (!bounds.ok)
      throw new InvalidRequestError(
        `Invalid write: ${bounds.issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`,
        bounds.issues,
      );
    const parsed = parseWrite(write);
    if (!parsed.ok) {
      const issues = parsed.issues;
      throw new InvalidRequestError(
        `Invalid write: ${issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`,
        issues,
      );
    }
    const w = parsed.write;
    const workflowId = gatewayWorkflowId(w.orgId, w.idempotencyKey);
    const digest = writeDigest(w);
    // The memo tells a start from a join (USE_EXISTING returns the running run either way)
    // and a resubmission from a different write under the same key.
    const nonce = randomBytes(8).toString('hex');
    let existing = false;
    try {
      await this.client.workflow.start(GATEWAY_WORKFLOW, {
        args: [w],
        taskQueue: domainTaskQueue(this.taskQueue, 'gateway'),
        workflowId,
        // Resubmitting the same key while it runs joins that run (a retried call is not a
        // second write); after a refusal (failed run) the corrected write may reuse the key;
        // an applied, rejected or expired key is never run again.
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
        typedSearchAttributes: [
          { key: CsOrg, value: w.orgId },
          { key: CsWriteKind, value: w.kind },
          { key: CsState, value: 'evaluating' },
        ],
        memo: { csWriteDigest: digest, csSubmitNonce: nonce },
        staticSummary: `${w.kind} · ${w.orgId} · by ${w.submitter.kind === 'user' ? w.submitter.userId : `agent ${w.submitter.agentType}`}`,
        staticDetails: [
          `**Write** ${w.kind} (idempotency key ${w.idempotencyKey})`,
          `**Submitter** ${w.submitter.kind === 'user' ? w.submitter.userId : `agent ${w.submitter.agentType} (${w.submitter.instanceId}), operated by ${w.submitter.operatorUserId}`}`,
          ...(w.source ? [`**Source** ${w.source.type} ${w.source.id}`] : []),
        ].join('\n\n'),
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      existing = true;
    }
    const memo = (await this.handle(w.orgId, w.idempotencyKey).describe()).memo ?? {};
    if (!existing && memo.csSubmitNonce === nonce)
      return { submissionId: workflowId, workflowId, started: true, joined: false };
    if (typeof memo.csWriteDigest === 'string' && memo.csWriteDigest !== digest)
      throw new IdempotencyConflictError(
        `Idempotency key ${w.idempotencyKey} in org ${w.orgId} already names a different write; submit under a new key`,
      );
    return { submissionId: workflowId, workflowId, started: false, joined: true };
  }

  /** The run's result; a refusal comes back as WriteRefusedError with its type and issue paths. */
  async result(orgId: string, idempotencyKey: string): Promise<GatewayResult> {
    try {
      return GatewayResultSchema.parse(await this.handle(orgId, idempotencyKey).result());
    } catch (err) {
      throw refusalFrom(err) ?? err;
    }
  }

  async state(orgId: string, idempotencyKey: string): Promise<GatewayStateView> {
    return this.handle(orgId, idempotencyKey).query(gatewayStateQuery);
  }

  /** Waits until the submission awaits approval or is finished (throws its refusal). */
  async settle(
    orgId: string,
    idempotencyKey: string,
    timeoutMs = 60_000,
  ): Promise<GatewayStateView> {
    const deadline = Date.now() + timeoutMs;
    const handle = this.handle(orgId, idempotencyKey);
    for (;;) {
      const view = await handle.query(gatewayStateQuery).catch(() => null);
      if (view && (view.status === 'awaiting_approval' || view.status === 'completed')) return view;
      const desc = await handle.describe();
      if (desc.status.name !== 'RUNNING') {
        await this.result(orgId, idempotencyKey); // throws the refusal
        return handle.query(gatewayStateQuery);
      }
      if (Date.now() > deadline)
        throw new Error(`Submission ${idempotencyKey} did not settle within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /**
   * Waits, without polling, until the submission awaits approval or is finished: an Update
   * the workflow completes when it gets there. `null` when `waitMs` passed first (the run
   * goes on; its state is at its address). A run that ended before the Update was taken
   * answers from its result (a refusal throws WriteRefusedError).
   */
  async awaitSettled(
    orgId: string,
    idempotencyKey: string,
    waitMs: number,
  ): Promise<GatewayStateView | null> {
    const handle = this.handle(orgId, idempotencyKey);
    const settled = handle.executeUpdate(gatewaySettledUpdate, { args: [] }).catch(async (err) => {
      const desc = await handle.describe();
      if (desc.status.name === 'RUNNING') throw err;
      await this.result(orgId, idempotencyKey); // throws the refusal
      return handle.query(gatewayStateQuery);
    });
    return raceWithTimeout(settled, waitMs);
  }

  /** Approve or reject (with a note); refusals come back as ApprovalRefusedError with the type. */
  async decide(
    orgId: string,
    idempotencyKey: string,
    decision: ApprovalDecision,
  ): Promise<ApprovalAck> {
    const parsed = ApprovalDecisionSchema.safeParse(decision);
    if (!parsed.success) throw InvalidRequestError.fromZod('approval decision', parsed.error);
    const d = parsed.data;
    const subjectId = gatewayWorkflowId(orgId, idempotencyKey);
    // The role is checked before the Update is sent (API, CLI and inbox all decide here), so
    // a member who may not approve adds nothing to the write's history. An approver of
    // another org, the submitter and the agent's operator are left to the Update's validator,
    // which refuses them with their own types (ApproverNotAuthorized, SelfApproval), also
    // before history.
    const roles = await rolesInOrg(this.db, orgId, d.approver.userId);
    if (d.approver.orgId === orgId && !roles.some((r) => APPROVING_ROLES.includes(r))) {
      const row = await getSubmission(this.db, subjectId);
      const self = row && [row.submitterUserId, row.operatorUserId].includes(d.approver.userId);
      if (!self)
        throw new ApprovalRefusedError(
          'ApproverNotAuthorized',
          `User ${d.approver.userId} may not approve writes in org ${orgId}`,
        );
    }
    // The caller was authenticated by whoever holds this client (the API, the CLI, a
    // trusted service): it signs a proof for exactly this decision, short-lived, with the
    // roles it found.
    // The proof names the plan the person was shown (revision and hash), carries a fresh
    // single-use nonce and lives a minute: it cannot be replayed onto another revision.
    const proof = signDecisionProof(
      this.secret(),
      {
        purpose: 'approval',
        orgId,
        subjectId,
        userId: d.approver.userId,
        decision: d.decision,
        roles,
        revision: d.revision,
        planHash: d.planHash,
      },
      APPROVAL_PROOF_TTL_MS,
    );
    // A vote that meets the submission between two runs (continue-as-new) was refused by the
    // validator, before history and before its nonce was spent: the same proof goes again.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.handle(orgId, idempotencyKey).executeUpdate(approvalUpdate, {
          args: [{ ...d, proof }],
        });
      } catch (err) {
        const handover =
          err instanceof WorkflowUpdateFailedError &&
          err.cause instanceof ApplicationFailure &&
          err.cause.type === 'RunHandover';
        if (!handover || attempt >= HANDOVER_ATTEMPTS)
          throw this.decisionFailure(err, idempotencyKey);
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
  }

  /** An Update's failure as the caller's error: a refusal keeps its type. */
  private decisionFailure(err: unknown, idempotencyKey: string): unknown {
    if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure)
      return new ApprovalRefusedError(err.cause.type ?? 'ApprovalRefused', err.cause.message);
    if (err instanceof WorkflowNotFoundError)
      return new ApprovalRefusedError(
        'ApprovalNotOpen',
        `No open submission ${idempotencyKey}: ${err.message}`,
      );
    return err;
  }

  /** An operator resumes a submission an outage suspended; the failed step runs again. */
  async resume(
    orgId: string,
    idempotencyKey: string,
    req: ResumeRequest,
  ): Promise<{ resumed: true; step: string }> {
    try {
      return await this.handle(orgId, idempotencyKey).executeUpdate(resumeUpdate, {
        args: [req],
      });
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure)
        throw new ApprovalRefusedError(err.cause.type ?? 'ResumeRefused', err.cause.message);
      throw err;
    }
  }

  /**
   * The plan a program deciding on its own reads right before it decides: the revision and
   * hash the workflow shows now. A person's decision comes from what was put in front of
   * them instead (the inbox page, `gateway show`), through `decide`.
   */
  async currentPlan(
    orgId: string,
    idempotencyKey: string,
  ): Promise<{ revision: number; planHash: string }> {
    const notOpen = (err: unknown): never => {
      if (err instanceof WorkflowNotFoundError)
        throw new ApprovalRefusedError('ApprovalNotOpen', `No open submission ${idempotencyKey}`);
      throw err;
    };
    // A finished run is answered from its description: querying it would need a worker to
    // replay its history, and with none running the query waits for one.
    const desc = await this.handle(orgId, idempotencyKey).describe().catch(notOpen);
    if (desc.status.name !== 'RUNNING')
      throw new ApprovalRefusedError(
        'ApprovalNotOpen',
        `Submission ${idempotencyKey} is not awaiting approval (run ${desc.status.name.toLowerCase()})`,
      );
    const view = await this.state(orgId, idempotencyKey).catch(notOpen);
    if (view.status !== 'awaiting_approval' || !view.planHash)
      throw new ApprovalRefusedError(
        'ApprovalNotOpen',
        `Submission ${view.submissionId} is not awaiting approval (${view.status})`,
      );
    return { revision: view.revision, planHash: view.planHash };
  }

  /** Approve the plan as it stands now (services, benches, tests): see `currentPlan`. */
  async approve(
    orgId: string,
    idempotencyKey: string,
    userId: string,
    note?: string,
  ): Promise<ApprovalAck> {
    return this.decide(orgId, idempotencyKey, {
      decision: 'approve',
      approver: { userId, orgId },
      ...(await this.currentPlan(orgId, idempotencyKey)),
      ...(note ? { note } : {}),
    });
  }

  /** Reject the plan as it stands now (services, benches, tests): see `currentPlan`. */
  async reject(
    orgId: string,
    idempotencyKey: string,
    userId: string,
    note: string,
  ): Promise<ApprovalAck> {
    return this.decide(orgId, idempotencyKey, {
      decision: 'reject',
      approver: { userId, orgId },
      ...(await this.currentPlan(orgId, idempotencyKey)),
      note,
    });
  }

  /** What did agent instance X change, and who signed each change? */
  changesByAgentInstance(agentInstanceId: string, orgId?: string): Promise<AgentChange[]> {
    return changesByAgentInstance(this.db, agentInstanceId, orgId);
  }

  trialBalance(orgId: string, asOf?: string): Promise<TrialBalance> {
    return trialBalance(this.db, orgId, asOf);
  }
}

/** The promise's value, or null when `ms` pass first (a later rejection is then ignored). */
export async function raceWithTimeout<T>(p: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  p.catch(() => undefined);
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
