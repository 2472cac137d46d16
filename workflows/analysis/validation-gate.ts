import { z } from 'zod';
import type { AnalysisRequest } from './request';
import { ALWAYS_REVIEW_TYPES } from './request';
import type { NumericClaim } from './evidence';
import type { StepResult } from './step-result';
import { checkPlausibility } from './plausibility';
import {
  AnswerFormSchema,
  checkAnswerForm,
  FormEvidenceSchema,
  type FormEvidence,
} from './answer-form';
import { checkLabelAgreement, LabelCheckSchema, type LabelCheckOptions } from './label-agreement';

const FieldDiffSchema = z.object({ field: z.string(), a: z.string(), b: z.string() });

/** The gate's answer-form check as recorded (asked = question parser, secondReading = cue reader). */
export const AnswerFormCheckSchema = z.object({
  ok: z.boolean(),
  status: z.enum(['agree', 'mismatch', 'not_checked']),
  asked: AnswerFormSchema.nullable(),
  secondReading: AnswerFormSchema.nullable(),
  delivered: AnswerFormSchema.nullable(),
  /** a = asked, b = delivered. */
  mismatches: z.array(FieldDiffSchema),
  /** a = question parser, b = cue reader. */
  disagreements: z.array(FieldDiffSchema),
  reasons: z.array(z.string()),
});
export { FormEvidenceSchema };

export const MIN_DELIVERY_CONFIDENCE = 0.85;

export const ValidationSchema = z.object({
  passed: z.boolean(),
  route: z.enum(['DELIVER', 'HUMAN_REVIEW']),
  minConfidence: z.number(),
  checks: z.object({
    citationCoverage: z.object({
      ok: z.boolean(),
      claims: z.number().int(),
      failures: z.array(z.object({ claimId: z.string(), reason: z.string() })),
    }),
    plausibility: z.object({
      ok: z.boolean(),
      failures: z.array(z.object({ claimId: z.string(), reason: z.string() })),
    }),
    confidence: z.object({
      ok: z.boolean(),
      min: z.number(),
      threshold: z.number(),
      lowest: z.string().nullable(),
    }),
    alwaysReview: z.object({ ok: z.boolean(), queryType: z.string() }),
    answerPresent: z.object({ ok: z.boolean(), reason: z.string().nullable() }),
    /** Absent in runs recorded before the answer-form contract. */
    answerForm: AnswerFormCheckSchema.optional(),
    /** Whether the rows read carry the question's qualifiers; absent before the check existed. */
    labelAgreement: LabelCheckSchema.optional(),
  }),
  reasons: z.array(z.string()),
});
export type Validation = z.infer<typeof ValidationSchema>;

export interface CitationCheck {
  claimId: string;
  ok: boolean;
  reason: string | null;
}

/**
 * The validation gate (SPEC Part A): pure and deterministic. The citation check results come
 * from the validate_citation activity, which reads the stored page text.
 */
export function runValidationGate(input: {
  request: AnalysisRequest;
  steps: StepResult[];
  claims: NumericClaim[];
  citationChecks: CitationCheck[];
  answerRequired: boolean;
  answerPresent: boolean;
  /**
   * The answer-form contract: checked whenever an answer is required and present. Runs
   * recorded before it existed replay without it (the workflow gates it with a patch).
   */
  form?: {
    evidence: FormEvidence | null;
    /**
     * Whether the label check reads the question's clause (the noun after "what", a part of
     * the filer as subject, a pay verb). False only when replaying runs recorded before it.
     */
    clauseRules?: boolean;
  };
  /** How the label agreement check reads the question (versioned by the workflow). */
  labelOptions?: LabelCheckOptions;
}): Validation {
  const reasons: string[] = [];
  const byId = new Map(input.claims.map((c) => [c.id, c]));
  const checkById = new Map(input.citationChecks.map((c) => [c.claimId, c]));

  const coverageFailures: { claimId: string; reason: string }[] = [];
  for (const claim of input.claims) {
    if (claim.derived) {
      if (!claim.formula)
        coverageFailures.push({
          claimId: claim.id,
          reason: `${claim.label}: derived value without its formula`,
        });
      if (claim.inputs.length === 0)
        coverageFailures.push({
          claimId: claim.id,
          reason: `${claim.label}: derived value without cited inputs`,
        });
      for (const inputId of claim.inputs) {
        if (!byId.has(inputId))
          coverageFailures.push({
            claimId: claim.id,
            reason: `${claim.label}: input ${inputId} is not among the claims`,
          });
      }
      continue;
    }
    if (claim.citations.length === 0) {
      coverageFailures.push({
        claimId: claim.id,
        reason: `${claim.label}: number ${claim.printed ?? claim.value} has no citation`,
      });
      continue;
    }
    // A negative claim must be printed negative: parentheses or a minus sign, never a bare 38.
    if (claim.value.startsWith('-') && !printedNegative(claim.printed ?? claim.value)) {
      coverageFailures.push({
        claimId: claim.id,
        reason: `${claim.label}: sign: claim ${claim.value} but the figure is printed ${claim.printed ?? claim.value}, not negative`,
      });
      continue;
    }
    const check = checkById.get(claim.id);
    if (!check)
      coverageFailures.push({
        claimId: claim.id,
        reason: `${claim.label}: citation was not checked`,
      });
    else if (!check.ok)
      coverageFailures.push({
        claimId: claim.id,
        reason: `${claim.label}: ${check.reason ?? 'cited text does not contain the number'}`,
      });
  }
  if (coverageFailures.length > 0)
    reasons.push(...coverageFailures.map((f) => `citation: ${f.reason}`));

  const plausibilityFailures = input.claims
    .map(checkPlausibility)
    .filter((p) => !p.ok)
    .map((p) => ({ claimId: p.claimId, reason: p.reason ?? 'implausible' }));
  if (plausibilityFailures.length > 0)
    reasons.push(...plausibilityFailures.map((f) => `plausibility: ${f.reason}`));

  let min = 1;
  let lowest: string | null = null;
  for (const s of input.steps) {
    if (s.confidence < min) {
      min = s.confidence;
      lowest = `${s.stepId} (${s.tool}${s.errorTag ? `, ${s.errorTag}` : ''})`;
    }
  }
  if (input.steps.length === 0) min = 0;
  const confidenceOk = min >= MIN_DELIVERY_CONFIDENCE;
  if (!confidenceOk)
    reasons.push(
      `confidence: minimum ${min.toFixed(2)} < ${MIN_DELIVERY_CONFIDENCE} at ${lowest ?? 'no steps'}`,
    );

  const alwaysReview = ALWAYS_REVIEW_TYPES.includes(input.request.queryType);
  if (alwaysReview)
    reasons.push(`policy: ${input.request.queryType} always goes to a human reviewer`);

  const answerOk = !input.answerRequired || input.answerPresent;
  if (!answerOk) reasons.push('answer: no structured answer was produced');

  // The contract applies where the answer is the quantity the question asks for
  // (extract_metric). A threshold check names its metric and threshold as typed constraints
  // and answers with a verdict computed by code: its form is not read from the words.
  const formCheck =
    input.form &&
    input.answerRequired &&
    input.answerPresent &&
    input.request.queryType === 'extract_metric'
      ? checkAnswerForm(input.form.evidence)
      : null;
  if (formCheck && !formCheck.ok) reasons.push(...formCheck.reasons);
  // The rows read must be the thing asked: the question's qualifiers ("discount", "cash
  // paid", a segment) must be carried by every row label read. Same scope as the form check.
  const labelEvidence = input.form?.evidence?.labels;
  const labelCheck =
    formCheck !== null && labelEvidence
      ? checkLabelAgreement(labelEvidence, {
          ...input.labelOptions,
          clause: input.form?.clauseRules ?? true,
        })
      : null;
  if (labelCheck && !labelCheck.ok) reasons.push(...labelCheck.reasons);

  const passed =
    (formCheck === null || formCheck.ok) &&
    (labelCheck === null || labelCheck.ok) &&
    coverageFailures.length === 0 &&
    plausibilityFailures.length === 0 &&
    confidenceOk &&
    !alwaysReview &&
    answerOk;
  return {
    passed,
    route: passed ? 'DELIVER' : 'HUMAN_REVIEW',
    minConfidence: min,
    checks: {
      citationCoverage: {
        ok: coverageFailures.length === 0,
        claims: input.claims.length,
        failures: coverageFailures,
      },
      plausibility: { ok: plausibilityFailures.length === 0, failures: plausibilityFailures },
      confidence: { ok: confidenceOk, min, threshold: MIN_DELIVERY_CONFIDENCE, lowest },
      alwaysReview: { ok: !alwaysReview, queryType: input.request.queryType },
      answerPresent: { ok: answerOk, reason: answerOk ? null : 'no structured answer' },
      ...(input.form
        ? {
            answerForm: formCheck ?? {
              ok: true,
              status: 'not_checked' as const,
              asked: input.form.evidence?.asked ?? null,
              secondReading: input.form.evidence?.secondReading ?? null,
              delivered: input.form.evidence?.delivered ?? null,
              mismatches: [],
              disagreements: [],
              reasons: [],
            },
          }
        : {}),
      ...(labelCheck ? { labelAgreement: labelCheck } : {}),
    },
    reasons,
  };
}

/** "(38)", "-38", "−38", "($38)": the printed figure itself says it is negative. */
export function printedNegative(printed: string): boolean {
  const t = printed.trim();
  return /^\(.*\)$/.test(t) || /^[-−–]/.test(t) || /^\$?\s?\(/.test(t);
}
