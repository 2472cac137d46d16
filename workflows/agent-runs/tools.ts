import { z } from 'zod';
import { IdSchema, QueryTypeSchema } from '../analysis/request';
import { BillExtractionSchema } from '../bills/extraction';
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

/** An imported bank/card line as the bank transaction processor records it. */
export const BankLineRecordSchema = z
  .object({
    lineKey: z.string().regex(/^[A-Za-z0-9._:-]{1,150}$/),
    statementRef: z.string().min(1).max(300),
    entryDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    /** Signed minor units: positive is spending. */
    amountMinor: Minor,
    currency: z.string().regex(/^[A-Z]{3}$/),
    merchant: z.string().max(500),
    merchantKey: z.string().min(1).max(200),
    cardKey: z.string().max(20),
    taxCode: z.string().max(20).nullable(),
    /** auto: posted on its own evidence; hybrid: a thin pattern a model agreed with; asked. */
    status: z.enum(['auto', 'hybrid', 'asked']),
    accountId: Id.nullable(),
    requestId: Id.nullable(),
    /** The account to credit instead of the agent's role account (a statement's bank account). */
    creditAccountId: Id.nullable().optional(),
  })
  .strict();
export type BankLineRecord = z.infer<typeof BankLineRecordSchema>;
const MAX_BANK_LINES = 10_000;

const DateString = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
/** A line of a bank statement as the reconciliation agent stores it (bank_lines): money in positive. */
export const StatementLineInputSchema = z
  .object({
    externalId: z.string().min(1).max(200),
    bookedOn: DateString,
    amountMinor: Minor,
    currency: z.string().regex(/^[A-Z]{3}$/),
    description: z.string().max(2000),
    reference: z.string().max(500).nullable(),
    counterpartyName: z.string().max(500).nullable(),
    counterpartyAccount: z.string().max(100).nullable(),
  })
  .strict();
export const StoredBankLineSchema = StatementLineInputSchema.extend({
  id: Id,
  bankAccountId: Id,
});
export type StoredBankLine = z.infer<typeof StoredBankLineSchema>;
/**
 * The feed id of statement lines the reconciliation agent hands to the bank transaction
 * processor: their entries (batch-entry:statement:<bank line id>) belong to that line and are
 * never a candidate for another one.
 */
export const STATEMENT_FEED_ID = 'statement';
/** Statement lines per store call (each payload stays well under Temporal's 2 MB). */
export const STATEMENT_LINES_PAGE = 1000;
const ReconciliationStatusSchema = z.enum(['pending', 'matched', 'settled', 'asked', 'handed_on']);
/** Lines per memory call: each payload stays well under Temporal's 2 MB. */
export const BANK_LINES_PAGE = 1000;

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
  document_outline: {
    kind: 'read',
    description:
      'What an ingested document is, to route it: its title, type, page count and the opening text of its first pages (at most `chars` characters).',
    input: z
      .object({
        documentId: Id,
        chars: z.number().int().min(200).max(8000).default(4000),
      })
      .strict(),
    output: z.object({
      documentId: z.string(),
      title: z.string(),
      docType: z.string().nullable(),
      mimeType: z.string(),
      pageCount: z.number().int(),
      opening: z.string(),
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
  bank_context: {
    kind: 'read',
    description:
      'For imported bank/card lines: which are already classified, how people resolved their merchants (per card and account), the chart of accounts and the account card spending is credited to.',
    input: z
      .object({
        lineKeys: z.array(z.string().min(1).max(150)).max(MAX_BANK_LINES),
        merchantKeys: z.array(z.string().min(1).max(200)).max(MAX_BANK_LINES),
        creditAccountRole: z
          .string()
          .regex(/^[a-z][a-z0-9_]{0,49}$/)
          .default('bank'),
      })
      .strict(),
    output: z.object({
      known: z.array(
        z.object({ lineKey: z.string(), status: z.string(), accountId: z.string().nullable() }),
      ),
      resolutions: z.array(
        z.object({
          merchantKey: z.string(),
          cardKey: z.string(),
          accountId: z.string(),
          count: z.number().int(),
        }),
      ),
      accounts: z.array(
        z.object({
          id: z.string(),
          code: z.string(),
          name: z.string(),
          type: z.string(),
          active: z.boolean(),
        }),
      ),
      creditAccountId: z.string().nullable(),
      /** The org's tax codes (absent from results recorded before they were added). */
      taxCodes: z
        .array(
          z.object({
            id: z.string(),
            code: z.string(),
            rateBasisPoints: z.number().int(),
            effectiveFrom: z.string(),
            effectiveTo: z.string().nullable(),
            accountId: z.string(),
          }),
        )
        .default([]),
      /** Active vendors with a default expense account (matched by normalized name). */
      vendors: z.array(z.object({ name: z.string(), accountId: z.string() })),
    }),
  },
  bank_lines_asked: {
    kind: 'read',
    description:
      'The bank/card lines waiting in one human request, as recorded when asked: a page of at most `limit` lines after the line key `after`.',
    input: z
      .object({
        requestId: Id,
        after: z.string().max(150).optional(),
        limit: z.number().int().min(1).max(BANK_LINES_PAGE).default(BANK_LINES_PAGE),
      })
      .strict(),
    output: z.object({ lines: z.array(BankLineRecordSchema), next: z.string().nullable() }),
  },
  bank_lines_record: {
    kind: 'memory',
    description:
      "Records lines in the agent's memory: posted on its own classification (auto), posted because a model agreed with a thin pattern (hybrid), or asked in a request (asked). A line already recorded is kept as is.",
    input: z.object({ lines: z.array(BankLineRecordSchema).max(BANK_LINES_PAGE) }).strict(),
    output: z.object({ recorded: z.number().int() }),
  },
  bank_lines_resolve: {
    kind: 'memory',
    description:
      "Records a person's answers to a request: each asked line becomes a human resolution (what the agent learns from).",
    input: z
      .object({
        requestId: Id,
        resolutions: z
          .array(z.object({ lineKey: z.string().min(1).max(150), accountId: Id }).strict())
          .max(MAX_BANK_LINES),
      })
      .strict(),
    output: z.object({ resolved: z.number().int() }),
  },
  bank_account_resolve: {
    kind: 'read',
    description:
      "The org's own active bank account with this IBAN or account number (spaces and case ignored) in this currency, with its ledger account; null with the reason when there is none.",
    input: z
      .object({
        iban: z.string().max(50).nullable(),
        number: z.string().max(50).nullable(),
        currency: z.string().regex(/^[A-Z]{3}$/),
      })
      .strict(),
    output: z.object({
      bankAccount: z
        .object({
          id: z.string(),
          holderName: z.string(),
          currency: z.string(),
          ledgerAccountId: z.string(),
        })
        .nullable(),
      reason: z.string().nullable(),
    }),
  },
  bank_statement_store: {
    kind: 'memory',
    description:
      "Stores a page of a statement's lines as bank lines of the org's bank account (source data, not books), once per line's externalId, and returns the lines of the page still waiting for reconciliation (new, or left pending by a run that stopped).",
    input: z
      .object({
        bankAccountId: Id,
        lines: z.array(StatementLineInputSchema).max(STATEMENT_LINES_PAGE),
      })
      .strict(),
    output: z.object({ stored: z.number().int(), pending: z.array(StoredBankLineSchema) }),
  },
  reconciliation_context: {
    kind: 'read',
    description:
      "What bank lines of one bank account may match, in one call: its ledger account; the posted entries between from and to that move money on it and no bank line is matched to yet (net movement, debit positive); and the org's open bills (not settled, not paid) in the account's currency issued by `to` and due from `from`, with their vendor's name and bank details.",
    input: z.object({ bankAccountId: Id, from: DateString, to: DateString }).strict(),
    output: z.object({
      ledgerAccountId: z.string(),
      currency: z.string(),
      entries: z.array(
        z.object({
          entryId: z.string(),
          entryDate: z.string(),
          netMinor: Minor,
          memo: z.string(),
        }),
      ),
      bills: z.array(
        z.object({
          id: z.string(),
          billNumber: z.string(),
          billDate: z.string(),
          dueDate: z.string(),
          currency: z.string(),
          totalMinor: Minor,
          vendorId: z.string(),
          vendorName: z.string(),
          vendorAccounts: z.array(z.string()),
        }),
      ),
    }),
  },
  reconciliation_record: {
    kind: 'memory',
    description:
      "Records what the run decided for stored bank lines: matched or settled (with the submission), asked (with the request and the ids offered) or handed on. A line moves only forward from pending, or from asked when its request's answer is applied.",
    input: z
      .object({
        lines: z
          .array(
            z
              .object({
                bankLineId: Id,
                status: ReconciliationStatusSchema.exclude(['pending']),
                requestId: Id.optional(),
                submissionId: Id.optional(),
                candidates: z.array(Id).max(50).optional(),
              })
              .strict(),
          )
          .max(STATEMENT_LINES_PAGE),
      })
      .strict(),
    output: z.object({ recorded: z.number().int() }),
  },
  reconciliation_asked: {
    kind: 'read',
    description:
      'The bank lines still waiting in one reconciliation request, with the ids offered for each and their bank account.',
    input: z.object({ requestId: Id }).strict(),
    output: z.object({
      lines: z.array(StoredBankLineSchema.extend({ candidates: z.array(z.string()) })),
      accounts: z.array(z.object({ bankAccountId: z.string(), ledgerAccountId: z.string() })),
    }),
  },
  filing_facts: {
    kind: 'read',
    description:
      "The inline XBRL facts of an ingested SEC filing (10-K, 10-Q): by concept (`us-gaap:Revenues` or a local name), period (`2024`, `2024-09-28`, `2023-10-01..2024-09-28`) and dimensions (company totals unless `any`). Each fact has its exact decimal value, unit, decimals, period, dimensions, and the page and character offsets of the number as printed, so it can be cited like a text span. The filing's dei facts name the filer and fiscal period.",
    input: z
      .object({
        documentId: Id,
        concept: z.string().min(1).max(300).optional(),
        period: z.string().min(4).max(40).optional(),
        dimensions: z.enum(['none', 'any']).default('none'),
        limit: z.number().int().min(1).max(200).default(50),
      })
      .strict(),
    output: z.object({
      documentId: z.string(),
      /** `facts` when the filing's facts are stored, `text-only` (with the reason), or null. */
      status: z.enum(['facts', 'text-only']).nullable(),
      reason: z.string().nullable(),
      dei: z.record(z.string(), z.string()),
      facts: z.array(
        z.object({
          factId: z.string(),
          concept: z.string(),
          value: z.string().nullable(),
          unit: z.string().nullable(),
          decimals: z.string().nullable(),
          period: z.object({
            type: z.enum(['instant', 'duration', 'forever']),
            start: z.string().nullable(),
            end: z.string().nullable(),
          }),
          dimensions: z.array(
            z.object({
              dimension: z.string(),
              member: z.string().optional(),
              typedValue: z.string().optional(),
            }),
          ),
          displayedText: z.string(),
          location: z
            .object({ page: z.number().int(), start: z.number().int(), end: z.number().int() })
            .nullable(),
        }),
      ),
    }),
  },
  bill_read: {
    kind: 'read',
    description:
      'Read an ingested supplier bill into issuer, invoice number, dates, currency, net, tax, gross and lines, with the independent checks and their verdicts (ready or human_review). A structured e-invoice (an uploaded UBL/CII XML, or the Factur-X/ZUGFeRD/XRechnung XML inside a PDF) is read exactly and validated with the official EN 16931 rules; other bills are read from their visible text.',
    input: z.object({ documentId: Id }).strict(),
    output: BillExtractionSchema.extend({ documentId: z.string() }),
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
      /** A refusal's issue paths (a batch's name the refused part: payload.entries.3.…). */
      issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
      /** A batch's parts that went to their own submissions (their keys). */
      splitOut: z.array(z.string()).optional(),
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

/** The gateway's dry run of an agent's write, as the submit tool reads it. */
export interface AgentDryRun {
  ok: boolean;
  lane: string;
  detail: string | null;
  issues?: { path: string; message: string }[];
  splitOut?: string[];
}

export type ToolName = keyof typeof TOOL_DEFINITIONS;
export const TOOL_NAMES = Object.keys(TOOL_DEFINITIONS) as ToolName[];
export type ReadToolName = {
  [K in ToolName]: (typeof TOOL_DEFINITIONS)[K]['kind'] extends 'read' ? K : never;
}[ToolName];
export type ToolInput<N extends ToolName> = z.infer<(typeof TOOL_DEFINITIONS)[N]['input']>;
export type ToolOutput<N extends ToolName> = z.infer<(typeof TOOL_DEFINITIONS)[N]['output']>;

export type MemoryToolName = {
  [K in ToolName]: (typeof TOOL_DEFINITIONS)[K]['kind'] extends 'memory' ? K : never;
}[ToolName];

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
