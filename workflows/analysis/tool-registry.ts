import { z } from 'zod';
import { CitationSchema, DecimalStringSchema, NumericClaimSchema } from './evidence';
import { FormEvidenceSchema } from './answer-form';
import { FactReadingsSchema } from './fact-readings';
import { DisclosureTopicSchema, QueryTypeSchema, ThresholdSchema } from './request';
import { ErrorType, permanentFailure } from '../errors';

/**
 * The typed tool registry: each tool's input and output schema and its own timeout and retry
 * limit. Tools run as activities; the workflow calls them only through this registry.
 */

const ToolResultBase = z.object({
  confidence: z.number().min(0).max(1),
  claims: z.array(NumericClaimSchema),
  citations: z.array(CitationSchema),
  /** Set when the result is a fallback (e.g. qualitative instead of structured). */
  errorTag: z.string().nullable(),
  summary: z.string(),
});

const RetrievedChunkSchema = CitationSchema.extend({
  chunkId: z.number().int(),
  rank: z.number(),
});

export const TOOL_SCHEMAS = {
  retrieve_context: {
    input: z.object({
      orgId: z.string(),
      docIds: z.array(z.string()).min(1),
      query: z.string().min(1),
      limit: z.number().int().min(1).max(50).default(8),
    }),
    output: ToolResultBase.extend({ chunks: z.array(RetrievedChunkSchema) }),
  },
  extract_metric: {
    input: z.object({
      orgId: z.string(),
      docId: z.string(),
      /** The natural-language question; the code path parses it when metric is absent. */
      question: z.string().min(1),
      metric: z.string().optional(),
      period: z.string().optional(),
      unit: z.string().optional(),
      /** Lets hybrid mode ask an LLM for what code could not do (only when a key is set). */
      allowLlm: z.boolean().default(true),
      /**
       * Pages (0-based) of this document that retrieve_context found, best first: the pages
       * the hybrid reader reads first, and against which the answer's citations are reported.
       */
      contextPages: z.array(z.number().int().min(0)).max(50).default([]),
    }),
    output: ToolResultBase.extend({
      status: z.enum(['structured', 'qualitative', 'not_found']),
      answer: z.string().nullable(),
      unit: z.string().nullable(),
      value: DecimalStringSchema.nullable(),
      method: z.enum(['code', 'llm', 'none']),
      /** Both readings of the asked form and the delivered form (null in runs recorded before it existed). */
      form: FormEvidenceSchema.nullable().default(null),
      /** The fact and printed readings of a filing with inline XBRL facts (null without facts, or before it existed). */
      readings: FactReadingsSchema.nullable().optional(),
    }),
  },
  compare_frameworks: {
    input: z.object({
      framework: z.string().optional(),
      /** Explicit requirement when the request is a simple threshold check. */
      threshold: ThresholdSchema.extend({ metric: z.string() }).optional(),
      observed: z.array(
        z.object({ metric: z.string(), value: DecimalStringSchema, claimId: z.string() }),
      ),
    }),
    output: ToolResultBase.extend({
      framework: z.string(),
      version: z.string(),
      rows: z.array(
        z.object({
          requirementId: z.string(),
          metric: z.string(),
          description: z.string(),
          operator: z.enum(['>=', '>', '<=', '<']),
          threshold: DecimalStringSchema,
          observed: DecimalStringSchema.nullable(),
          status: z.enum(['pass', 'breach', 'missing']),
          margin: DecimalStringSchema.nullable(),
          source: z.string(),
          claimId: z.string().nullable(),
        }),
      ),
    }),
  },
  flag_disclosure: {
    input: z
      .object({
        orgId: z.string(),
        docIds: z.array(z.string()).min(1),
        topics: z.array(DisclosureTopicSchema).default([]),
        /** Free search terms, used when a failed extraction degrades to "is it discussed, and where". */
        terms: z.array(z.string().min(2)).max(10).default([]),
      })
      .refine((i) => i.topics.length > 0 || i.terms.length > 0, {
        message: 'give topics or terms',
        path: ['topics'],
      }),
    output: ToolResultBase.extend({
      flags: z.array(
        z.object({
          topic: z.union([DisclosureTopicSchema, z.string()]),
          disclosed: z.boolean(),
          strength: z.enum(['explicit', 'mentioned', 'absent']),
          citations: z.array(CitationSchema),
        }),
      ),
    }),
  },
  generate_summary: {
    input: z.object({
      queryType: QueryTypeSchema,
      queryText: z.string(),
      facts: z.array(
        z.object({
          stepId: z.string(),
          tool: z.string(),
          summary: z.string(),
          confidence: z.number(),
        }),
      ),
      docIds: z.array(z.string()),
      orgId: z.string(),
    }),
    output: ToolResultBase.extend({
      text: z.string(),
      classification: z.string().nullable(),
      method: z.enum(['code', 'llm']),
    }),
  },
  validate_citation: {
    input: z.object({
      orgId: z.string(),
      claims: z.array(NumericClaimSchema),
    }),
    output: z.object({
      results: z.array(
        z.object({
          claimId: z.string(),
          ok: z.boolean(),
          reason: z.string().nullable(),
        }),
      ),
    }),
  },
} as const;

export type ToolName = keyof typeof TOOL_SCHEMAS;
export const TOOL_NAMES = Object.keys(TOOL_SCHEMAS) as ToolName[];
export type ToolInput<T extends ToolName> = z.input<(typeof TOOL_SCHEMAS)[T]['input']>;
export type ToolOutput<T extends ToolName> = z.output<(typeof TOOL_SCHEMAS)[T]['output']>;
export type AnyToolOutput = { [K in ToolName]: ToolOutput<K> }[ToolName];

export interface ToolPolicy {
  startToCloseTimeoutMs: number;
  /** Retries after the first attempt (SPEC default 2). */
  retryLimit: number;
  /** Tool tried once, on the last failure, instead (graceful degradation). */
  degradeTo: ToolName | null;
}

export const TOOL_POLICIES: Readonly<Record<ToolName, ToolPolicy>> = {
  retrieve_context: { startToCloseTimeoutMs: 30_000, retryLimit: 2, degradeTo: null },
  extract_metric: { startToCloseTimeoutMs: 120_000, retryLimit: 2, degradeTo: 'flag_disclosure' },
  compare_frameworks: { startToCloseTimeoutMs: 15_000, retryLimit: 2, degradeTo: null },
  flag_disclosure: { startToCloseTimeoutMs: 60_000, retryLimit: 2, degradeTo: null },
  generate_summary: { startToCloseTimeoutMs: 90_000, retryLimit: 2, degradeTo: null },
  validate_citation: { startToCloseTimeoutMs: 30_000, retryLimit: 2, degradeTo: null },
};

export function isToolName(name: string): name is ToolName {
  return Object.prototype.hasOwnProperty.call(TOOL_SCHEMAS, name);
}

/** Unknown tool names fail loudly, listing what the registry has. */
export function requireTool(name: string): ToolName {
  if (!isToolName(name)) {
    throw permanentFailure(
      ErrorType.UnknownTool,
      `Unknown tool "${name}"; the registry has: ${TOOL_NAMES.join(', ')}`,
    );
  }
  return name;
}

/** Validates a tool input against the registry; a bad input is a permanent, typed failure. */
export function parseToolInput<T extends ToolName>(
  tool: T,
  input: unknown,
): z.output<(typeof TOOL_SCHEMAS)[T]['input']> {
  const parsed = TOOL_SCHEMAS[tool].input.safeParse(input);
  if (!parsed.success) {
    throw permanentFailure(
      ErrorType.InvalidToolInput,
      `Invalid input for tool ${tool}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data as z.output<(typeof TOOL_SCHEMAS)[T]['input']>;
}

export function parseToolOutput<T extends ToolName>(tool: T, output: unknown): ToolOutput<T> {
  const parsed = TOOL_SCHEMAS[tool].output.safeParse(output);
  if (!parsed.success) {
    throw permanentFailure(
      ErrorType.InvalidToolOutput,
      `Tool ${tool} returned an invalid result: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data as ToolOutput<T>;
}
