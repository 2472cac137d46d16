import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  log,
  patched,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { createAnalysisActivities } from '../activities/analysis';
import type { IdentityActivities } from '../activities/identity';
import {
  type AnalysisResult,
  type AnalysisStateView,
  type Answer,
  type AnalysisOutcome,
  type ReviewAck,
  AnalysisRequestSchema,
  confidenceBucket,
  reviewUpdate,
  stateQuery,
  analysisSettledUpdate,
} from './analysis.contract';
import { closeInboxEntry, openInboxEntry, remindInboxEntry } from './requests/inbox-link';
import { AnalysisStateMachine, type AnalysisState } from './analysis/state-machine';
import { planRequest, type Plan, type PlannedStep } from './analysis/planner';
import {
  TOOL_POLICIES,
  type ToolName,
  type ToolOutput,
  parseToolInput,
  parseToolOutput,
  requireTool,
} from './analysis/tool-registry';
import { DEGRADED_CONFIDENCE, type StepResult } from './analysis/step-result';
import { runValidationGate, type Validation } from './analysis/validation-gate';
import type { AnalysisRequest } from './analysis/request';
import type { NumericClaim, Citation } from './analysis/evidence';
import {
  DEFAULT_REVIEW_DUE_MS,
  DEFAULT_REVIEW_EXPIRE_MS,
  DEFAULT_REVIEW_REMIND_EVERY_MS,
  ReviewDecisionSchema,
  type ReviewDecision,
} from './analysis/review';
import { ErrorType, NON_RETRYABLE_ERROR_TYPES, permanentFailure } from './errors';
import { CsConfidenceBucket, CsOrg, CsOutcome, CsQueryType, CsState } from './search-attributes';

type AnalysisActivities = ReturnType<typeof createAnalysisActivities>;

// Bookkeeping (request row, audit rows, results, reviewer checks): quick, idempotent, and
// retried long enough to ride out a database restart.
// A reviewer's decision proof is checked where the signing secret lives: in an activity.
const identity = proxyActivities<IdentityActivities>({
  startToCloseTimeout: '10s',
  retry: {
    initialInterval: '200ms',
    maximumAttempts: 5,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});
const bookkeeping = proxyActivities<AnalysisActivities>({
  startToCloseTimeout: '30s',
  retry: {
    initialInterval: '1s',
    backoffCoefficient: 2,
    maximumInterval: '30s',
    maximumAttempts: 10,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});

// Notifications a person sees: few attempts, so a broken channel cannot spam.
const notify = proxyActivities<AnalysisActivities>({
  startToCloseTimeout: '30s',
  retry: {
    initialInterval: '5s',
    backoffCoefficient: 2,
    maximumAttempts: 3,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});

// Each tool gets its own timeout and retry limit from the registry.
function toolActivity<T extends ToolName>(tool: T): (input: unknown) => Promise<unknown> {
  const policy = TOOL_POLICIES[tool];
  const proxies = proxyActivities<AnalysisActivities>({
    startToCloseTimeout: policy.startToCloseTimeoutMs,
    retry: {
      initialInterval: '1s',
      backoffCoefficient: 2,
      maximumInterval: '20s',
      maximumAttempts: policy.retryLimit + 1,
      nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
    },
  });
  return proxies[tool] as (input: unknown) => Promise<unknown>;
}

const TOOLS: Record<ToolName, (input: unknown) => Promise<unknown>> = {
  retrieve_context: toolActivity('retrieve_context'),
  extract_metric: toolActivity('extract_metric'),
  compare_frameworks: toolActivity('compare_frameworks'),
  flag_disclosure: toolActivity('flag_disclosure'),
  generate_summary: toolActivity('generate_summary'),
  validate_citation: toolActivity('validate_citation'),
};

function messageOf(err: unknown): string {
  if (err instanceof ActivityFailure && err.cause) return err.cause.message;
  return err instanceof Error ? err.message : String(err);
}

/** Stable JSON for cache keys: key order must not make two identical retrievals differ. */
function stableKey(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableKey).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : 1,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableKey(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function outcomeOf(d: ReviewDecision): AnalysisOutcome {
  return d.decision === 'approve' ? 'approved' : d.decision === 'reject' ? 'rejected' : 'corrected';
}

/**
 * Answers one analysis request: receive, plan, execute the steps, validate, then deliver or
 * wait for a human. Every side effect is an activity; this function only orchestrates.
 */
export async function analysisWorkflow(rawRequest: unknown): Promise<AnalysisResult> {
  const parsed = AnalysisRequestSchema.safeParse(rawRequest);
  if (!parsed.success) {
    throw permanentFailure(
      ErrorType.InvalidRequest,
      `Invalid analysis request: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
    );
  }
  const request: AnalysisRequest = parsed.data;
  const { workflowId } = workflowInfo();
  const machine = new AnalysisStateMachine();
  let plan: Plan | null = null;
  const steps: StepResult[] = [];
  let validation: Validation | null = null;
  let proposed: Answer | null = null;
  let result: AnalysisResult | null = null;
  let status: AnalysisStateView['status'] = 'running';
  let decision: ReviewDecision | undefined;
  let decisionInProgress = false;
  let remindersSent = 0;
  let dueAt: number | null = null;
  let expiresAt: number | null = null;

  const audit = (event: string, payload: unknown, actor = 'workflow'): Promise<void> =>
    bookkeeping.recordAudit({
      orgId: request.orgId,
      subjectType: 'analysis',
      subjectId: workflowId,
      event,
      idempotencyKey: `${workflowId}:${event}`,
      actor,
      payload,
    });

  const move = (next: AnalysisState, detail: string): void => {
    machine.moveTo(next);
    upsertSearchAttributes([{ key: CsState, value: next }]);
    setCurrentDetails(`**${next}** — ${detail}`);
  };

  const view = (): AnalysisStateView => ({
    requestId: request.requestId,
    orgId: request.orgId,
    machineState: machine.state,
    trail: [...machine.trail],
    status,
    path: plan?.path ?? null,
    plan: plan?.steps ?? [],
    steps,
    validation,
    proposedAnswer: proposed,
    review: {
      open: status === 'awaiting_review',
      dueAt: dueAt === null ? null : new Date(dueAt).toISOString(),
      expiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString(),
      remindersSent,
      decision: decision?.decision ?? null,
      reviewer: decision?.reviewer.userId ?? null,
    },
    result,
  });
  setHandler(stateQuery, view);
  // The API waits on this instead of polling: it returns once a reviewer is asked or the run
  // is finished. No command of its own, so recorded histories replay unchanged.
  setHandler(analysisSettledUpdate, async (): Promise<AnalysisStateView> => {
    await condition(() => status === 'awaiting_review' || status === 'completed');
    return view();
  });

  // An Update (not a Signal) so the reviewer is told at once whether the decision was
  // accepted. The validator refuses before anything reaches history; the handler then checks
  // the reviewer's role in the org against the database.
  setHandler(
    reviewUpdate,
    async (raw): Promise<ReviewAck> => {
      const d = ReviewDecisionSchema.parse(raw);
      decisionInProgress = true;
      try {
        // Decisions recorded before proofs existed replay without one.
        if (patched('analysis-decision-proof'))
          await identity.identityVerifyDecision({
            proof: d.proof ?? '',
            purpose: 'review',
            orgId: request.orgId,
            subjectId: workflowId,
            userId: d.reviewer.userId,
            decision: d.decision,
          });
        await bookkeeping.authorizeReviewer({ orgId: request.orgId, userId: d.reviewer.userId });
        const decidedAt = new Date(Date.now()).toISOString();
        await bookkeeping.recordReviewDecision({
          requestId: request.requestId,
          orgId: request.orgId,
          decision: d,
          decidedAt,
        });
        decision = d;
        return { accepted: true, outcome: outcomeOf(d) };
      } catch (err) {
        decisionInProgress = false;
        if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure) {
          throw ApplicationFailure.create({
            type: err.cause.type ?? undefined,
            message: err.cause.message,
            nonRetryable: true,
          });
        }
        throw err;
      }
    },
    {
      validator: (raw): void => {
        if (status !== 'awaiting_review') {
          throw ApplicationFailure.create({
            type: ErrorType.ReviewNotOpen,
            message: `No review is open (state ${machine.state}, status ${status})`,
            nonRetryable: true,
          });
        }
        if (decision !== undefined || decisionInProgress) {
          throw ApplicationFailure.create({
            type: ErrorType.ReviewAlreadyDecided,
            message: 'This review already has a decision',
            nonRetryable: true,
          });
        }
        const check = ReviewDecisionSchema.safeParse(raw);
        if (check.success && !check.data.proof) {
          throw ApplicationFailure.create({
            type: ErrorType.DecisionProofInvalid,
            message: 'A review decision carries a decision proof issued by the API or CLI',
            nonRetryable: true,
          });
        }
        if (!check.success) {
          throw ApplicationFailure.create({
            type: ErrorType.InvalidReviewDecision,
            message: check.error.issues
              .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
              .join('; '),
            nonRetryable: true,
          });
        }
        if (check.data.reviewer.orgId !== request.orgId) {
          throw ApplicationFailure.create({
            type: ErrorType.ReviewerNotAuthorized,
            message: `Reviewer belongs to org ${check.data.reviewer.orgId}, not ${request.orgId}`,
            nonRetryable: true,
          });
        }
        // Four eyes: the person who asked for the analysis does not review its answer. The
        // API records a person as `user:<id>`; a service may name the bare id. Validators do
        // not run on replay, so this needs no patch.
        const reviewer = check.data.reviewer.userId;
        if (request.requestedBy === `user:${reviewer}` || request.requestedBy === reviewer) {
          throw ApplicationFailure.create({
            type: ErrorType.SelfReview,
            message: `User ${reviewer} requested this analysis and may not review it`,
            nonRetryable: true,
          });
        }
        const known = new Set((proposed?.claims ?? []).map((c) => c.id));
        const unknown = check.data.corrections.filter((c) => !known.has(c.claimId));
        if (unknown.length > 0) {
          throw ApplicationFailure.create({
            type: ErrorType.InvalidReviewDecision,
            message: `Corrections name unknown claims: ${unknown.map((u) => u.claimId).join(', ')}; known: ${[...known].join(', ') || 'none'}`,
            nonRetryable: true,
          });
        }
      },
    },
  );

  upsertSearchAttributes([
    { key: CsOrg, value: request.orgId },
    { key: CsQueryType, value: request.queryType },
    { key: CsState, value: machine.state },
  ]);
  setCurrentDetails(`**RECEIVE_TASK** — ${request.queryType} on ${request.docIds.join(', ')}`);

  // RECEIVE_TASK: the org and every document must exist and be ingested.
  const documents = await bookkeeping.receiveRequest({ request, workflowId });
  await audit('request', { request, documents });

  // PLAN
  move('PLAN', 'rule-based planner');
  plan = planRequest(request);
  await audit('plan', plan);

  // EXECUTE_STEP, once per step
  const retrievalCache = new Map<string, StepResult>();
  for (const step of plan.steps) {
    move('EXECUTE_STEP', `${step.id} ${step.tool}: ${step.purpose}`);
    const stepResult = await executeStep(step, steps, retrievalCache);
    steps.push(stepResult);
    await audit(`step:${step.id}`, { step, result: stepResult });
  }

  // VALIDATE_OUTPUT
  move('VALIDATE_OUTPUT', 'citation coverage, plausibility, confidence, review policy');
  proposed = composeAnswer(plan, steps);
  const citationChecks = proposed.claims.some((c) => !c.derived && c.citations.length > 0)
    ? parseToolOutput(
        'validate_citation',
        await TOOLS.validate_citation(
          parseToolInput('validate_citation', { orgId: request.orgId, claims: proposed.claims }),
        ),
      ).results
    : [];
  const answerRequired = plan.path === 'extraction';
  // The answer-form contract changes routing (an answer of the wrong kind now goes to a
  // person), so runs recorded before it replay without it: patched() is false on replay of
  // a history without the marker, true for every new run.
  const formContract = patched('answer-form-contract');
  // "Q2"/"H1" in a question are period tags, not qualifiers a row label must carry: a routing
  // change, so runs recorded before it replay with the earlier reading.
  const periodTags = patched('label-period-tags');
  // "Higher or lower" asks for a change's direction, not a qualifier a row label must carry:
  // a routing change (such answers were sent to review), so older runs replay without it.
  const comparatives = patched('label-comparatives');
  // "As a share of net sales" asks for a ratio, like "as a percentage of": a routing change
  // (such answers were sent to review), so older runs replay without it.
  const shareOf = patched('label-share-of');
  // "A plus B", "A less B", "did A exceed B", "what share of B was A": over several rows read,
  // the words join operands or ask for the quotient, never qualify a row; a routing change
  // (such answers were sent to review), so older runs replay without it.
  const definitionWords = patched('label-definition-words');
  const extractOut = steps.find((s) => s.tool === 'extract_metric' && s.status === 'ok')?.output as
    ToolOutput<'extract_metric'> | undefined;
  validation = runValidationGate({
    request,
    steps,
    claims: proposed.claims,
    citationChecks,
    answerRequired,
    answerPresent: proposed.value !== null,
    ...(formContract
      ? {
          form: {
            evidence: extractOut?.form ?? null,
            // The clause rules send more answers to review: runs recorded before them replay
            // without them.
            clauseRules: patched('label-agreement-clause'),
          },
        }
      : {}),
    labelOptions: { periodTags, comparatives, shareOf, definitionWords },
  });
  const confidence = validation.minConfidence;
  upsertSearchAttributes([{ key: CsConfidenceBucket, value: confidenceBucket(confidence) }]);
  await audit('validation', validation);

  const finish = async (
    outcome: AnalysisOutcome,
    answer: Answer | null,
    reviewer: ReviewDecision | undefined,
  ): Promise<AnalysisResult> => {
    const final: AnalysisResult = {
      requestId: request.requestId,
      orgId: request.orgId,
      workflowId,
      outcome,
      answer,
      confidence,
      path: plan?.path ?? 'full_agent',
      validation: validation as Validation,
      reviewedBy: reviewer?.reviewer.userId ?? null,
      reviewNote: reviewer?.note ?? null,
      remindersSent,
    };
    await bookkeeping.storeResult({ result: final, outcome });
    await audit(
      `outcome:${outcome}`,
      { outcome, reviewer: reviewer?.reviewer.userId ?? null },
      reviewer ? `user:${reviewer.reviewer.userId}` : 'workflow',
    );
    upsertSearchAttributes([{ key: CsOutcome, value: outcome }]);
    result = final;
    status = 'completed';
    return final;
  };

  if (validation.route === 'DELIVER') {
    move('DELIVER', `delivered at confidence ${confidence.toFixed(2)}`);
    const delivered = await finish('delivered', proposed, undefined);
    await condition(allHandlersFinished);
    return delivered;
  }

  move('HUMAN_REVIEW', validation.reasons.join('; '));
  // Times first, so no query ever shows an open review without its due and expiry times.
  const startedAt = Date.now();
  dueAt = startedAt + (request.review.dueAfterMs ?? DEFAULT_REVIEW_DUE_MS);
  expiresAt = startedAt + (request.review.expireAfterMs ?? DEFAULT_REVIEW_EXPIRE_MS);
  const remindEvery = request.review.remindEveryMs ?? DEFAULT_REVIEW_REMIND_EVERY_MS;
  status = 'awaiting_review';
  // While the review is open nothing is delivered: the stored result says so.
  const pending: AnalysisResult = {
    requestId: request.requestId,
    orgId: request.orgId,
    workflowId,
    outcome: 'awaiting_review',
    answer: proposed,
    confidence,
    path: plan.path,
    validation,
    reviewedBy: null,
    reviewNote: null,
    remindersSent: 0,
  };
  await bookkeeping.storeResult({ result: pending, outcome: 'awaiting_review' });

  // One inbox: the open review is a request record too (patched inside).
  await openInboxEntry({
    linkKind: 'analysis_review',
    workflowId,
    key: request.requestId,
    orgId: request.orgId,
    type: 'review',
    title: `Review ${request.queryType}: ${request.queryText.slice(0, 200)}`,
    question: `${request.queryText}\nSent to review: ${validation.reasons.join('; ')}`,
    evidence: { requestId: request.requestId, reasons: validation.reasons, confidence },
    createdAtMs: startedAt,
    dueAtMs: dueAt,
    expiresAtMs: expiresAt,
    createdBy: { userId: request.requestedBy },
  });
  let nextReminder = dueAt;
  while (decision === undefined) {
    const now = Date.now();
    if (now >= expiresAt) break;
    const decided = await condition(
      () => decision !== undefined,
      Math.max(1, Math.min(nextReminder, expiresAt) - now),
    );
    if (decided) break;
    if (Date.now() >= nextReminder && Date.now() < expiresAt) {
      remindersSent += 1;
      try {
        await notify.sendReviewReminder({
          orgId: request.orgId,
          requestId: request.requestId,
          workflowId,
          reminderNumber: remindersSent,
          dueAt: new Date(dueAt).toISOString(),
        });
      } catch (err) {
        // A broken notification channel must not lose the pending review: keep waiting.
        log.error('review reminder failed', {
          workflowId,
          reminder: remindersSent,
          error: messageOf(err),
        });
      }
      await remindInboxEntry('analysis_review', workflowId, remindersSent);
      nextReminder += remindEvery;
    }
  }
  // A decision whose authorization is still running when the review expires wins; once no
  // decision is in flight, the review closes and the validator refuses late decisions.
  await condition(() => !decisionInProgress || decision !== undefined);
  status = 'running';

  let final: AnalysisResult;
  if (decision === undefined) {
    log.info('review expired', { workflowId, remindersSent });
    final = await finish('expired', null, undefined);
  } else if (decision.decision === 'approve') {
    final = await finish('approved', proposed, decision);
  } else if (decision.decision === 'reject') {
    final = await finish('rejected', null, decision);
  } else {
    final = await finish('corrected', applyCorrections(proposed, decision), decision);
  }
  await closeInboxEntry('analysis_review', workflowId, {
    status: decision === undefined ? 'expired' : 'completed',
    detail: decision === undefined ? 'no review before expiry' : decision.decision,
    by: decision?.reviewer.userId ?? null,
  });
  await condition(allHandlersFinished);
  return final;
}

/** Binds inputs that depend on earlier steps, runs the tool, degrades on the last failure. */
async function executeStep(
  step: PlannedStep,
  done: StepResult[],
  cache: Map<string, StepResult>,
): Promise<StepResult> {
  const tool = requireTool(step.tool);
  const input: Record<string, unknown> = { ...step.input };
  if (tool === 'compare_frameworks') {
    const sources = done.filter(
      (s) => step.observedFromSteps.includes(s.stepId) && s.status === 'ok',
    );
    const threshold = input.threshold as { metric: string } | undefined;
    // A threshold check compares the answer claim (first claim of its extract step); a
    // framework comparison takes every claim that names a metric.
    input.observed = threshold
      ? sources
          .flatMap((s) => s.claims.slice(0, 1))
          .map((c) => ({ metric: threshold.metric, value: c.value, claimId: c.id }))
      : sources
          .flatMap((s) => s.claims.slice(0, 1))
          .filter((c) => c.metric !== null)
          .map((c) => ({ metric: c.metric as string, value: c.value, claimId: c.id }));
  }
  if (tool === 'extract_metric') {
    // What retrieval found for this document is handed to extraction, not just logged.
    const docId = input.docId as string | undefined;
    const pages: number[] = [];
    for (const s of done) {
      if (s.tool !== 'retrieve_context' || s.status !== 'ok') continue;
      for (const c of (s.output as ToolOutput<'retrieve_context'>).chunks)
        if (c.docId === docId && !pages.includes(c.page) && pages.length < 50) pages.push(c.page);
    }
    input.contextPages = pages;
  }
  if (tool === 'generate_summary') {
    input.facts = done
      .filter((s) => step.factsFromSteps.includes(s.stepId))
      .map((s) => ({
        stepId: s.stepId,
        tool: s.tool,
        summary: s.summary,
        confidence: s.confidence,
      }));
  }
  const base = { stepId: step.id, tool, purpose: step.purpose, cached: false };
  let typedInput: unknown;
  try {
    typedInput = parseToolInput(tool, input);
  } catch (err) {
    return {
      ...base,
      status: 'failed',
      confidence: 0,
      summary: `Step could not run: ${messageOf(err)}`,
      claims: [],
      citations: [],
      errorTag: 'invalid_tool_input',
      error: messageOf(err),
      output: null,
    };
  }
  const cacheKey = tool === 'retrieve_context' ? stableKey(typedInput) : null;
  const hit = cacheKey ? cache.get(cacheKey) : undefined;
  if (hit) return { ...hit, ...base, cached: true };

  try {
    const output = parseToolOutput(tool, await TOOLS[tool](typedInput)) as ToolOutput<ToolName>;
    const res: StepResult = {
      ...base,
      status: 'ok',
      confidence: 'confidence' in output ? output.confidence : 1,
      summary: 'summary' in output ? output.summary : '',
      claims: 'claims' in output ? output.claims : [],
      citations: 'citations' in output ? output.citations : [],
      errorTag: 'errorTag' in output ? output.errorTag : null,
      error: null,
      output,
    };
    if (cacheKey) cache.set(cacheKey, res);
    return res;
  } catch (err) {
    const error = messageOf(err);
    log.warn('tool failed after its retries', { step: step.id, tool, error });
    const degradeTo = TOOL_POLICIES[tool].degradeTo;
    if (degradeTo === 'flag_disclosure' && tool === 'extract_metric') {
      const e = typedInput as { orgId: string; docId: string; question: string; metric?: string };
      const terms = (e.metric ? [e.metric.replace(/_/g, ' ')] : []).concat(
        e.question
          .split(/[^A-Za-z&]+/)
          .filter((w) => w.length > 4)
          .slice(0, 6),
      );
      try {
        const fallback = parseToolOutput(
          'flag_disclosure',
          await TOOLS.flag_disclosure(
            parseToolInput('flag_disclosure', {
              orgId: e.orgId,
              docIds: [e.docId],
              terms: terms.length ? terms : ['financial'],
            }),
          ),
        );
        return {
          ...base,
          status: 'degraded',
          confidence: Math.min(fallback.confidence, DEGRADED_CONFIDENCE),
          summary: `Extraction failed (${error}); where the filing discusses it: ${fallback.summary}`,
          claims: [],
          citations: fallback.citations,
          errorTag: `degraded:${tool}->${degradeTo}`,
          error,
          output: fallback,
        };
      } catch (fallbackErr) {
        return {
          ...base,
          status: 'failed',
          confidence: 0,
          summary: `Extraction and its fallback failed: ${error}; ${messageOf(fallbackErr)}`,
          claims: [],
          citations: [],
          errorTag: 'step_failed',
          error,
          output: null,
        };
      }
    }
    return {
      ...base,
      status: 'failed',
      confidence: 0,
      summary: `Step failed: ${error}`,
      claims: [],
      citations: [],
      errorTag: 'step_failed',
      error,
      output: null,
    };
  }
}

function dedupeCitations(list: Citation[]): Citation[] {
  const seen = new Set<string>();
  return list.filter((c) => {
    const k = `${c.docId}:${c.page}:${c.charStart}:${c.charEnd}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The answer a reader would get: the extracted value (extraction path) or the summary. */
function composeAnswer(plan: Plan, steps: StepResult[]): Answer {
  const summaryStep = [...steps]
    .reverse()
    .find((s) => s.tool === 'generate_summary' && s.status === 'ok');
  const summaryOut = summaryStep?.output as ToolOutput<'generate_summary'> | undefined;
  const okSteps = steps.filter((s) => s.status === 'ok');
  if (plan.path === 'extraction') {
    const extract = steps.find((s) => s.tool === 'extract_metric');
    const out =
      extract?.status === 'ok' ? (extract.output as ToolOutput<'extract_metric'>) : undefined;
    const structured = out?.status === 'structured' && out.value !== null;
    const compare = steps.find((s) => s.tool === 'compare_frameworks' && s.status === 'ok');
    const compareOut = compare?.output as ToolOutput<'compare_frameworks'> | undefined;
    const verdict = compareOut?.rows[0]
      ? ` — ${compareOut.rows[0].status} (${compareOut.rows[0].operator} ${compareOut.rows[0].threshold}, margin ${compareOut.rows[0].margin ?? 'n/a'})`
      : '';
    return {
      text: structured
        ? `${out.answer ?? out.value}${verdict}`
        : (summaryOut?.text ?? extract?.summary ?? 'No answer'),
      value: structured ? out.value : null,
      unit: structured ? out.unit : null,
      claims: structured ? out.claims : [],
      citations: dedupeCitations(structured ? out.citations : (extract?.citations ?? [])),
      classification: null,
    };
  }
  const claims: NumericClaim[] = okSteps.flatMap((s) => s.claims);
  return {
    text: summaryOut?.text ?? okSteps.map((s) => s.summary).join('\n'),
    value: null,
    unit: null,
    claims,
    citations: dedupeCitations(okSteps.flatMap((s) => s.citations)).slice(0, 40),
    classification: summaryOut?.classification ?? null,
  };
}

/** Reviewer corrections replace values and are marked as human-sourced. */
function applyCorrections(answer: Answer | null, d: ReviewDecision): Answer | null {
  if (!answer) return null;
  const byId = new Map(d.corrections.map((c) => [c.claimId, c]));
  const claims = answer.claims.map((c) => {
    const fix = byId.get(c.id);
    return fix ? { ...c, value: fix.value, unit: fix.unit ?? c.unit, source: 'human' as const } : c;
  });
  const primary = answer.claims[0] ? byId.get(answer.claims[0].id) : undefined;
  return {
    ...answer,
    claims,
    value: primary ? primary.value : answer.value,
    unit: primary?.unit ?? answer.unit,
    text: primary
      ? `${primary.value} ${primary.unit ?? answer.unit ?? ''}`.trim() +
        ` (corrected by reviewer: ${d.note ?? ''})`
      : answer.text,
  };
}
