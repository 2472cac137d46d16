import { z } from 'zod';
import { CitationSchema, NumericClaimSchema } from './evidence';
import { TOOL_NAMES, type ToolName } from './tool-registry';

/** What one executed step contributed: recorded in the audit log and shown in the state query. */
export const StepResultSchema = z.object({
  stepId: z.string(),
  tool: z.enum(TOOL_NAMES as [ToolName, ...ToolName[]]),
  purpose: z.string(),
  status: z.enum(['ok', 'degraded', 'failed']),
  confidence: z.number().min(0).max(1),
  summary: z.string(),
  claims: z.array(NumericClaimSchema),
  citations: z.array(CitationSchema),
  errorTag: z.string().nullable(),
  error: z.string().nullable(),
  /** The tool's full typed output (null when it failed). */
  output: z.unknown(),
  cached: z.boolean(),
});
export type StepResult = z.infer<typeof StepResultSchema>;

/** Confidence every degraded result is capped at: below the 0.70 structured and 0.85 delivery gates. */
export const DEGRADED_CONFIDENCE = 0.55;
