import { z } from 'zod';
import { IdSchema, QueryTypeSchema } from '../analysis/request';
import { EventTypeSchema } from '../events/contract';

/**
 * The finance tool registry: names, kinds and zod schemas (pure, so the workflow filters and
 * validates with the same definitions the activities implement). Read tools run as
 * activities; `submit` — the only write — starts a gateway submission; `analyze_document`
 * starts the analysis workflow. Every input and output is parsed at both ends.
 */
const Id = z.string().min(1).max(200);
const Minor = z.string().regex(/^-?\d+$/);

export const VendorSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  taxId: z.string().nullable(),
  paymentTermsId: z.string().nullable(),
  defaultExpenseAccountId: z.string().nullable(),
  status: z.string(),
});
export const AccountSchema = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  type: z.string(),
  systemRole: z.string().nullable(),
});
export const TaxCodeSchema = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  kind: z.string(),
  rateBasisPoints: z.number().int(),
});
export const PaymentTermsSchema = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  dueDays: z.number().int(),
});

export const TOOL_DEFINITIONS = {
  master_data_search: {
    kind: 'read',
    description:
      'Search master data of the org (vendors, customers, accounts, tax codes, payment terms) by name or code.',
    input: z
      .object({
        entity: z.enum(['vendor', 'customer', 'account', 'tax_code', 'payment_terms']),
        query: z.string().max(200).default(''),
        limit: z.number().int().min(1).max(50).default(20),
      })
      .strict(),
    output: z.object({
      entity: z.string(),
      rows: z.array(z.object({ id: z.string(), label: z.string() })),
    }),
  },
  trial_balance: {
    kind: 'read',
    description: 'The trial balance of the org (per account and currency, minor units).',
    input: z
      .object({
        asOf: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/)
          .optional(),
      })
      .strict(),
    output: z.object({
      asOf: z.string().nullable(),
      rows: z.array(
        z.object({
          accountId: z.string(),
          code: z.string(),
          name: z.string(),
          currency: z.string(),
          debitMinor: Minor,
          creditMinor: Minor,
        }),
      ),
    }),
  },
  bank_accounts_list: {
    kind: 'read',
    description: "The org's own bank accounts (masked numbers).",
    input: z.object({}).strict(),
    output: z.object({
      accounts: z.array(
        z.object({
          id: z.string(),
          holderName: z.string(),
          currency: z.string().nullable(),
          maskedNumber: z.string(),
        }),
      ),
    }),
  },
  document_search: {
    kind: 'read',
    description: 'Full-text search over ingested documents of the org; returns cited passages.',
    input: z
      .object({
        query: z.string().min(1).max(500),
        docIds: z.array(Id).max(20).optional(),
        limit: z.number().int().min(1).max(20).default(5),
      })
      .strict(),
    output: z.object({
      hits: z.array(
        z.object({ documentId: z.string(), page: z.number().int(), quote: z.string() }),
      ),
    }),
  },
  ap_context: {
    kind: 'read',
    description:
      'All AP reference data for one vendor in one call: the vendor, its open bills, payment terms, the tax codes and the relevant accounts.',
    input: z.object({ vendorId: Id }).strict(),
    output: z.object({
      vendor: VendorSchema,
      openBills: z.array(
        z.object({
          id: z.string(),
          billNumber: z.string(),
          dueDate: z.string(),
          currency: z.string(),
          totalMinor: Minor,
          paidMinor: Minor,
        }),
      ),
      paymentTerms: PaymentTermsSchema.nullable(),
      taxCodes: z.array(TaxCodeSchema),
      accounts: z.array(AccountSchema),
    }),
  },
  submit: {
    kind: 'write',
    description:
      'Submit one write (journal.post, bill.post, vendor.create, ...) through the write gateway. It is validated, risk-scored and may wait for human approval.',
    input: z
      .object({
        kind: z.string().min(1),
        payload: z.record(z.string(), z.unknown()),
        sourceDocumentId: Id.optional(),
      })
      .strict(),
    output: z.object({
      submissionId: z.string(),
      status: z.enum(['started', 'refused']),
      detail: z.string().nullable(),
    }),
  },
  analyze_document: {
    kind: 'workflow',
    description: 'Run the cited document-analysis pipeline on ingested documents for one question.',
    input: z
      .object({
        docIds: z.array(IdSchema).min(1).max(20),
        queryType: QueryTypeSchema,
        queryText: z.string().trim().min(1).max(4000),
        framework: z.string().min(1).max(64).optional(),
      })
      .strict(),
    output: z.object({
      requestId: z.string(),
      outcome: z.string(),
      answer: z.string().nullable(),
    }),
  },
  emit_event: {
    kind: 'event',
    description:
      'Emit an event for the org (it goes through the normal event path: dedup, dispatch to subscribed agents). Chains are capped: an event caused by a chain already at the hop cap is refused.',
    input: z
      .object({
        type: EventTypeSchema,
        payload: z.record(z.string(), z.unknown()),
      })
      .strict(),
    output: z.object({
      eventId: z.string().nullable(),
      status: z.enum(['accepted', 'duplicate', 'refused']),
      hop: z.number().int(),
      detail: z.string().nullable(),
    }),
  },
} as const;

export type ToolName = keyof typeof TOOL_DEFINITIONS;
export const TOOL_NAMES = Object.keys(TOOL_DEFINITIONS) as ToolName[];
export type ReadToolName = {
  [K in ToolName]: (typeof TOOL_DEFINITIONS)[K]['kind'] extends 'read' ? K : never;
}[ToolName];
export type ToolInput<N extends ToolName> = z.infer<(typeof TOOL_DEFINITIONS)[N]['input']>;
export type ToolOutput<N extends ToolName> = z.infer<(typeof TOOL_DEFINITIONS)[N]['output']>;

export function isToolName(n: string): n is ToolName {
  return Object.prototype.hasOwnProperty.call(TOOL_DEFINITIONS, n);
}

/**
 * Built-ins of agent frameworks that reach outside the books: never exposed, whatever a
 * config says (a config that lists one is refused at load).
 */
const ALWAYS_BLOCKED =
  /^(bash|shell|exec|run_command|computer|terminal|python|file_|read_file|write_file|edit_file|str_replace|text_editor|fs_|web_|web$|http|fetch|browser|curl)/i;
export function isAlwaysBlocked(name: string): boolean {
  return ALWAYS_BLOCKED.test(name);
}

export interface ToolFilter {
  exposed: ToolName[];
  /** The registry's complement of the allow-list, passed on as explicitly disallowed. */
  disallowed: ToolName[];
}

export class ToolFilterError extends Error {
  override readonly name = 'ToolFilterError';
}

/**
 * Exactly the allowed tools, and an assertion that the filter really filtered: every allowed
 * name matched a registry tool (a prefixed name such as `mcp__finance__ap_context` matches
 * nothing and fails here, instead of silently exposing everything or nothing), exposed and
 * disallowed partition the registry, and nothing always-blocked got through.
 */
export function filterTools(
  allowed: readonly string[],
  registry: readonly string[] = TOOL_NAMES,
): ToolFilter {
  const blocked = allowed.filter(isAlwaysBlocked);
  if (blocked.length > 0)
    throw new ToolFilterError(`always-blocked tools may not be allowed: ${blocked.join(', ')}`);
  const exposed = registry.filter((t) => allowed.includes(t)) as ToolName[];
  const disallowed = registry.filter((t) => !allowed.includes(t)) as ToolName[];
  const unmatched = allowed.filter((a) => !exposed.includes(a as ToolName));
  if (unmatched.length > 0)
    throw new ToolFilterError(
      `allowed tools match no registry tool (name or prefix mismatch?): ${unmatched.join(', ')}; registry: ${registry.join(', ')}`,
    );
  if (
    exposed.length !== new Set(allowed).size ||
    exposed.length + disallowed.length !== registry.length ||
    exposed.some((t) => disallowed.includes(t))
  )
    throw new ToolFilterError(
      `tool filter is not effective: exposed ${exposed.join(', ')}; disallowed ${disallowed.join(', ')}; allowed ${allowed.join(', ')}`,
    );
  return { exposed, disallowed };
}

/** Phrases in a model's final text that mean the work did not happen, whatever it claims. */
export const FAILURE_PATTERNS: readonly RegExp[] = [
  /tool (?:was )?not found/i,
  /unknown tool/i,
  /no such tool/i,
  /not (?:allowed|permitted) to use/i,
  /permission denied/i,
  /i (?:was|am) unable to/i,
  /could not (?:access|complete)/i,
];
export function failurePatternIn(text: string): string | null {
  const hit = FAILURE_PATTERNS.find((p) => p.test(text));
  return hit ? (text.match(hit)?.[0] ?? hit.source) : null;
}
