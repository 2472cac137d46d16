/**
 * VALIDATE_OUTPUT: the answer composed from the steps' results goes through citation checks
 * and the validation gate, which routes it to DELIVER or HUMAN_REVIEW. Every routing rule
 * added after runs were recorded is behind its own patch, evaluated here in a fixed order.
 */
import { patched, upsertSearchAttributes } from '@temporalio/workflow';
import { type Answer, confidenceBucket } from '../analysis.contract';
import type { Plan } from './planner';
import { type ToolOutput, parseToolInput, parseToolOutput } from './tool-registry';
import { runValidationGate, type Validation } from './validation-gate';
import type { AnalysisRunState } from './run-state';
import { TOOLS } from './activity-proxies';
import { moveTo, recordAudit } from './run-progress';
import { composeAnswer } from './answer';
import { CsConfidenceBucket } from '../search-attributes';

/** What validation hands to delivery or review. */
export interface ValidatedOutput {
  readonly plan: Plan;
  /** The proposed answer, as composed from the steps. */
  readonly answer: Answer;
  readonly validation: Validation;
  /** The validation's minimum confidence: the confidence the result is stored with. */
  readonly confidence: number;
}

export async function validateOutput(
  state: AnalysisRunState,
  plan: Plan,
): Promise<ValidatedOutput> {
  const { request, steps } = state;
  moveTo(state, 'VALIDATE_OUTPUT', 'citation coverage, plausibility, confidence, review policy');
  const proposed = composeAnswer(plan, steps);
  state.proposed = proposed;
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
  const validation = runValidationGate({
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
  state.validation = validation;
  const confidence = validation.minConfidence;
  upsertSearchAttributes([{ key: CsConfidenceBucket, value: confidenceBucket(confidence) }]);
  await recordAudit(state, 'validation', validation);
  return { plan, answer: proposed, validation, confidence };
}
