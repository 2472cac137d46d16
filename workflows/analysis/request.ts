import { z } from 'zod';

/** Query types a request may ask for; the planner maps each to a path. */
export const QUERY_TYPES = [
  'extract_metric',
  'check_threshold',
  'classify_document',
  'compare_frameworks',
  'compliance_check',
  'compliance_assessment',
  'regulatory_gap_analysis',
  'risk_flag',
  'summarize',
  'trend_analysis',
  'multi_document_comparison',
] as const;
export const QueryTypeSchema = z.enum(QUERY_TYPES);
export type QueryType = z.infer<typeof QueryTypeSchema>;

/** Single-metric types: answered by the extraction path when they concern one document. */
export const SINGLE_METRIC_TYPES: readonly QueryType[] = ['extract_metric', 'check_threshold'];
/** Compliance types: answered by the compliance path against a framework. */
export const COMPLIANCE_TYPES: readonly QueryType[] = [
  'compare_frameworks',
  'compliance_check',
  'compliance_assessment',
  'regulatory_gap_analysis',
];
/** These always go to a human, whatever the confidence (SPEC Part A, validation gate rule 4). */
export const ALWAYS_REVIEW_TYPES: readonly QueryType[] = [
  'compliance_assessment',
  'risk_flag',
  'regulatory_gap_analysis',
];

const idPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
export const IdSchema = z
  .string()
  .regex(idPattern, 'letters, digits, . _ - (max 128), starting with a letter or digit');

export const DISCLOSURE_TOPICS = [
  'going_concern',
  'material_weakness',
  'restatement',
  'liquidity_risk',
  'climate',
  'litigation',
  'cybersecurity',
  'capital_adequacy',
] as const;
export const DisclosureTopicSchema = z.enum(DISCLOSURE_TOPICS);
export type DisclosureTopic = z.infer<typeof DisclosureTopicSchema>;

export const ThresholdSchema = z.object({
  operator: z.enum(['>=', '>', '<=', '<']),
  /** Decimal string in the metric's unit (e.g. "4.5" for 4.5%). */
  value: z.string().regex(/^-?\d+(\.\d+)?$/, 'a decimal number as a string'),
});
export type Threshold = z.infer<typeof ThresholdSchema>;

export const ConstraintsSchema = z
  .object({
    metric: z.string().min(1).max(64).optional(),
    period: z.string().min(1).max(32).optional(),
    unit: z.string().min(1).max(32).optional(),
    topic: DisclosureTopicSchema.optional(),
    topics: z.array(DisclosureTopicSchema).max(DISCLOSURE_TOPICS.length).optional(),
    threshold: ThresholdSchema.optional(),
  })
  .strict();

/** A caller-defined analytical step (the chain path). Tool names are checked against the registry. */
export const AnalyticalStepSchema = z
  .object({
    tool: z.string().min(1),
    purpose: z.string().min(1).max(500),
    params: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();

export const ReviewPolicySchema = z
  .object({
    // Bounded: no reminder more often than once a minute, no wait beyond five years.
    /** When a reminder goes out if no decision has been made (default 14 days). */
    dueAfterMs: z.number().int().min(60_000).max(157_680_000_000).optional(),
    /** Interval between later reminders (default 7 days). */
    remindEveryMs: z.number().int().min(60_000).max(157_680_000_000).optional(),
    /** When an undecided review expires (default 90 days). */
    expireAfterMs: z.number().int().min(60_000).max(157_680_000_000).optional(),
  })
  .strict();

export const AnalysisRequestSchema = z
  .object({
    requestId: IdSchema,
    orgId: IdSchema,
    docIds: z.array(IdSchema).min(1).max(20),
    queryType: QueryTypeSchema,
    queryText: z.string().trim().min(1).max(4000),
    framework: z.string().min(1).max(64).optional(),
    analyticalStepsDefined: z.boolean().default(false),
    analyticalSteps: z.array(AnalyticalStepSchema).max(20).default([]),
    constraints: ConstraintsSchema.default({}),
    review: ReviewPolicySchema.default({}),
    requestedBy: z.string().min(1).max(128).default('service'),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.analyticalStepsDefined && r.analyticalSteps.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['analyticalSteps'],
        message: 'analyticalStepsDefined is true but no steps were given',
      });
    }
    if (r.queryType === 'check_threshold' && !r.constraints.threshold) {
      ctx.addIssue({
        code: 'custom',
        path: ['constraints', 'threshold'],
        message: 'check_threshold needs constraints.threshold',
      });
    }
  });
export type AnalysisRequestInput = z.input<typeof AnalysisRequestSchema>;
export type AnalysisRequest = z.output<typeof AnalysisRequestSchema>;
