import { z } from 'zod';
import { isPlaceholderEmail } from './placeholder-email';
import { ROLES } from '../roles';

/**
 * Wire shapes of gateway writes: the envelope every submission shares and one payload schema
 * per write kind. Pure (no db), so the workflow, the client and the activities parse the
 * same way. Money is integer minor units as a digit string (JSON has no bigint, and floats
 * are refused); each line or amount names its ISO 4217 currency.
 */

// Intl knows the ISO 4217 list; deterministic for a given Node version, so safe in workflows.
const ISO_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
export const CurrencySchema = z
  .string()
  .refine((c) => /^[A-Z]{3}$/.test(c) && ISO_CURRENCIES.has(c), {
    message: 'an ISO 4217 currency code such as USD or EUR',
  });

const digits = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v);
/** A non-negative amount in minor units ("12500" = 125.00). Numbers are accepted when whole. */
export const MinorUnitsSchema = z.preprocess(
  digits,
  z
    .string()
    .regex(
      /^(0|[1-9][0-9]{0,14})$/,
      'an amount in integer minor units, not negative, below 10^15 (e.g. "12500" for 125.00)',
    ),
);
/** A positive amount in minor units. */
export const PositiveMinorUnitsSchema = z.preprocess(
  digits,
  z
    .string()
    .regex(
      /^[1-9][0-9]{0,14}$/,
      'a positive amount in integer minor units, below 10^15 (e.g. "12500" for 125.00)',
    ),
);

export const DateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD')
  .refine(
    (d) =>
      !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) &&
      new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    { message: 'not a calendar date' },
  )
  .refine((d) => d >= '1900-01-01' && d <= '2200-12-31', {
    message: 'a date between 1900 and 2200',
  });
export const PeriodSchema = z
  .string()
  .regex(/^(19\d\d|2[01]\d\d|2200)-(0[1-9]|1[0-2])$/, 'a period as YYYY-MM, 1900 to 2200');
const IdSchema = z.string().min(1).max(200);
const NewIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,100}$/, 'letters, digits, dot, dash, underscore');
const Text = (max: number) => z.string().trim().min(1).max(max);

const DIGITS = /^[0-9]+$/;
const wellFormed = (l: { debit?: unknown; credit?: unknown; currency?: unknown }) =>
  (l.debit === undefined || (typeof l.debit === 'string' && DIGITS.test(l.debit))) &&
  (l.credit === undefined || (typeof l.credit === 'string' && DIGITS.test(l.credit))) &&
  typeof l.currency === 'string' &&
  ISO_CURRENCIES.has(l.currency);

export const JournalLineSchema = z
  .object({
    accountId: IdSchema,
    currency: CurrencySchema,
    debit: MinorUnitsSchema.optional(),
    credit: MinorUnitsSchema.optional(),
    memo: z.string().max(500).optional(),
  })
  .strict()
  .superRefine((l, ctx) => {
    // zod reports field issues and still runs refinements: judge only well-formed amounts.
    if (!wellFormed(l)) return;
    const d = BigInt(l.debit ?? '0');
    const c = BigInt(l.credit ?? '0');
    if (d > 0n === c > 0n)
      ctx.addIssue({
        code: 'custom',
        path: ['debit'],
        message: 'a line has exactly one of debit or credit, and it is positive',
      });
  });
export type JournalLineInput = z.infer<typeof JournalLineSchema>;

/** Debits equal credits per currency (judged only when every line is well formed). */
function refineBalanced(e: { lines: JournalLineInput[] }, ctx: z.RefinementCtx): void {
  if (!Array.isArray(e.lines) || !e.lines.every(wellFormed)) return;
  const net = new Map<string, bigint>();
  for (const l of e.lines)
    net.set(
      l.currency,
      (net.get(l.currency) ?? 0n) + BigInt(l.debit ?? '0') - BigInt(l.credit ?? '0'),
    );
  for (const [currency, diff] of net) {
    if (diff !== 0n)
      ctx.addIssue({
        code: 'custom',
        path: ['lines'],
        message: `the entry does not balance in ${currency}: debits minus credits = ${diff}`,
      });
  }
}

export const JournalPostSchema = z
  .object({
    entryDate: DateSchema,
    memo: Text(500),
    lines: z.array(JournalLineSchema).min(2).max(200),
  })
  .strict()
  .superRefine(refineBalanced);

/** Entries a journal.post_batch carries at most (its payload stays well under 2 MB). */
export const BATCH_MAX_ENTRIES = 1000;
/** An entry's own idempotency key: unique per org, whichever batch carries it. */
export const EntryKeySchema = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{1,150}$/, 'letters, digits and . _ : - (at most 150)');
export const JournalBatchEntrySchema = z
  .object({
    key: EntryKeySchema,
    entryDate: DateSchema,
    memo: Text(500),
    lines: z.array(JournalLineSchema).min(2).max(50),
  })
  .strict()
  .superRefine(refineBalanced);
export type JournalBatchEntry = z.infer<typeof JournalBatchEntrySchema>;
/** The idempotency key of the submission a high-risk entry is split out to. */
export const splitIdempotencyKey = (entryKey: string) => `split:${entryKey}`;

/**
 * Many journal entries in one submission: applied all or none in one transaction, each entry
 * idempotent by its own key (an entry posted before — by this or another batch — is skipped),
 * each risk-scored on its own; the batch's lane is the highest of its entries, and an entry in
 * the high lane is split out to its own submission instead of holding the batch.
 */
export const JournalPostBatchSchema = z
  .object({ entries: z.array(JournalBatchEntrySchema).min(1).max(BATCH_MAX_ENTRIES) })
  .strict()
  .superRefine((b, ctx) => {
    if (!Array.isArray(b.entries)) return;
    const seen = new Map<string, number>();
    b.entries.forEach((e, i) => {
      const key = (e as { key?: unknown }).key;
      if (typeof key !== 'string') return;
      const first = seen.get(key);
      if (first !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['entries', i, 'key'],
          message: `duplicate entry key (also entries.${first}.key)`,
        });
      else seen.set(key, i);
    });
  });

export const JournalReverseSchema = z
  .object({ entryId: IdSchema, reversalDate: DateSchema, reason: Text(500) })
  .strict();

/** An IBAN as stored and compared: country, check digits, account, no spaces. */
export const IBAN = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{10,30}$/;
/** A BIC / SWIFT code: bank, country, location, optional branch. */
export const BIC = /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

export const BillPostSchema = z
  .object({
    vendorId: IdSchema,
    billNumber: Text(100),
    billDate: DateSchema,
    dueDate: DateSchema.optional(),
    currency: CurrencySchema,
    /**
     * The IBAN the bill asks to be paid to (a structured e-invoice's BT-84). Compared with the
     * vendor's stored bank details: a different one fires the payee-change risk rule.
     */
    payeeIban: z.string().regex(IBAN, 'an IBAN without spaces').optional(),
    lines: z
      .array(
        z
          .object({
            description: Text(500),
            amountMinor: PositiveMinorUnitsSchema,
            accountId: IdSchema.optional(),
            taxCodeId: IdSchema.optional(),
          })
          .strict(),
      )
      .min(1)
      .max(200),
  })
  .strict();

/** Bills a bill.post_batch carries at most (its payload stays well under 2 MB). */
export const BILL_BATCH_MAX_ENTRIES = 200;
/** One bill of a batch: a bill.post payload under its own key, with the document it comes from. */
export const BillBatchEntrySchema = z
  .object({
    key: EntryKeySchema,
    sourceDocumentId: IdSchema.optional(),
    ...BillPostSchema.shape,
  })
  .strict();
export type BillBatchEntry = z.infer<typeof BillBatchEntrySchema>;

/**
 * Many vendor bills in one submission (a bill processor's batch of documents): each bill
 * planned exactly as bill.post plans it and idempotent by its own key (a bill already posted
 * under its key is skipped), each risk-scored on its own. Bills in the low lane post together
 * in one apply transaction; a bill that needs a person is split out to its own submission and
 * its own approval instead of holding the batch.
 */
export const BillPostBatchSchema = z
  .object({ entries: z.array(BillBatchEntrySchema).min(1).max(BILL_BATCH_MAX_ENTRIES) })
  .strict()
  .superRefine((b, ctx) => {
    if (!Array.isArray(b.entries)) return;
    const keys = new Map<string, number>();
    const numbers = new Map<string, number>();
    b.entries.forEach((e, i) => {
      const { key, vendorId, billNumber } = e as Partial<BillBatchEntry>;
      if (typeof key === 'string') {
        const first = keys.get(key);
        if (first !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: ['entries', i, 'key'],
            message: `duplicate entry key (also entries.${first}.key)`,
          });
        else keys.set(key, i);
      }
      if (typeof vendorId === 'string' && typeof billNumber === 'string') {
        const bill = `${vendorId}\u0000${billNumber}`;
        const first = numbers.get(bill);
        if (first !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: ['entries', i, 'billNumber'],
            message: `bill ${billNumber} of vendor ${vendorId} is also entries.${first}`,
          });
        else numbers.set(bill, i);
      }
    });
  });

/**
 * A vendor credit: a supplier's credit note (or an invoice correcting one with a negative
 * total) reverses a bill's accounts — Dr AP for its gross, Cr the expense per net line and the
 * input tax per line. Amounts are the credit's own, positive. When it names the invoice it
 * corrects (BT-25) and that bill of the vendor is still open, the credit is applied against it;
 * otherwise it stays an open credit on the vendor.
 */
export const BillCreditSchema = z
  .object({
    vendorId: IdSchema,
    creditNumber: Text(100),
    creditDate: DateSchema,
    currency: CurrencySchema,
    /** The vendor's invoice number this credit corrects (BT-25), when the document names one. */
    precedingBillNumber: Text(100).optional(),
    lines: z
      .array(
        z
          .object({
            description: Text(500),
            amountMinor: PositiveMinorUnitsSchema,
            accountId: IdSchema.optional(),
            taxCodeId: IdSchema.optional(),
          })
          .strict(),
      )
      .min(1)
      .max(200),
  })
  .strict();

export const PaymentSendSchema = z
  .object({
    vendorId: IdSchema,
    billId: IdSchema.optional(),
    fromBankAccountId: IdSchema,
    amountMinor: PositiveMinorUnitsSchema,
    currency: CurrencySchema,
    paymentDate: DateSchema,
    reference: z.string().max(140).optional(),
  })
  .strict();

export const BankDetailsSchema = z
  .object({
    holderName: Text(200),
    iban: z.string().regex(IBAN, 'an IBAN without spaces').optional(),
    accountNumber: z
      .string()
      .regex(/^[0-9]{4,20}$/, '4 to 20 digits')
      .optional(),
    routingCode: z
      .string()
      .regex(/^[0-9A-Z-]{4,20}$/)
      .optional(),
    bic: z.string().regex(BIC, 'a BIC/SWIFT code').optional(),
    currency: CurrencySchema,
  })
  .strict()
  .refine((b) => b.iban !== undefined || b.accountNumber !== undefined, {
    message: 'an IBAN or an account number',
    path: ['iban'],
  });
export type BankDetails = z.infer<typeof BankDetailsSchema>;

const ContactFields = {
  email: z.email().max(320).optional(),
  phone: z
    .string()
    .regex(/^\+?[0-9 ().-]{5,30}$/)
    .optional(),
  taxId: z.string().max(50).optional(),
  paymentTermsId: IdSchema.optional(),
};

/**
 * Contact fields that hold a reserved placeholder until a person fills them. A flagged field
 * must be present and, for email, on a reserved domain (RFC 2606/6761): a flag never hides a
 * real address, and the record says exactly which fields are not real.
 */
export const PLACEHOLDER_FIELDS = ['email', 'phone'] as const;
const PlaceholderFieldsSchema = z.array(z.enum(PLACEHOLDER_FIELDS)).max(PLACEHOLDER_FIELDS.length);
const placeholdersHonest = (
  c: { placeholderFields?: string[]; email?: unknown; phone?: unknown },
  ctx: z.RefinementCtx,
) => {
  for (const f of c.placeholderFields ?? []) {
    const v = (c as Record<string, unknown>)[f];
    if (typeof v !== 'string')
      ctx.addIssue({
        code: 'custom',
        path: ['placeholderFields'],
        message: `${f} is flagged as a placeholder but not given`,
      });
    else if (f === 'email' && !isPlaceholderEmail(v))
      ctx.addIssue({
        code: 'custom',
        path: ['placeholderFields'],
        message: `email ${v} is flagged as a placeholder but is not on a reserved domain`,
      });
  }
};

export const VendorCreateSchema = z
  .object({
    vendorId: NewIdSchema.optional(),
    name: Text(200),
    ...ContactFields,
    defaultExpenseAccountId: IdSchema.optional(),
    bankAccount: BankDetailsSchema.optional(),
    placeholderFields: PlaceholderFieldsSchema.optional(),
  })
  .strict()
  .superRefine(placeholdersHonest);

export const VendorUpdateSchema = z
  .object({
    vendorId: IdSchema,
    expectedVersion: z.number().int().positive().optional(),
    changes: z
      .object({
        name: Text(200).optional(),
        ...ContactFields,
        defaultExpenseAccountId: IdSchema.optional(),
        status: z.enum(['active', 'inactive']).optional(),
        bankAccount: BankDetailsSchema.optional(),
      })
      .strict()
      .refine((c) => Object.keys(c).length > 0, { message: 'at least one change' }),
  })
  .strict();

export const BankLineMatchSchema = z.object({ bankLineId: IdSchema, entryId: IdSchema }).strict();
/**
 * A bank line pays an open bill in full: Dr the AP account the bill credited, Cr the bank's
 * ledger account, on the line's booking date; the line is matched and the bill settled.
 */
export const BillSettleSchema = z.object({ billId: IdSchema, bankLineId: IdSchema }).strict();
export const PeriodCloseSchema = z.object({ period: PeriodSchema }).strict();
export const PeriodReopenSchema = z.object({ period: PeriodSchema, reason: Text(500) }).strict();

export const CustomerCreateSchema = z
  .object({
    customerId: NewIdSchema.optional(),
    name: Text(200),
    ...ContactFields,
    placeholderFields: PlaceholderFieldsSchema.optional(),
  })
  .strict()
  .superRefine(placeholdersHonest);
export const TaxCodeCreateSchema = z
  .object({
    code: z.string().regex(/^[A-Z0-9_-]{1,30}$/),
    name: Text(200),
    kind: z.enum(['vat', 'sales_tax']),
    rateBasisPoints: z.number().int().min(0).max(10000),
    effectiveFrom: DateSchema,
    effectiveTo: DateSchema.optional(),
    accountId: IdSchema,
  })
  .strict()
  .refine((t) => t.effectiveTo === undefined || t.effectiveTo > t.effectiveFrom, {
    message: 'effectiveTo must be after effectiveFrom',
    path: ['effectiveTo'],
  });
export const PaymentTermsCreateSchema = z
  .object({
    paymentTermsId: NewIdSchema.optional(),
    code: z.string().regex(/^[A-Z0-9_-]{1,30}$/),
    name: Text(200),
    dueDays: z.number().int().min(0).max(365),
    discountDays: z.number().int().min(0).max(365).optional(),
    discountBasisPoints: z.number().int().min(0).max(10000).optional(),
  })
  .strict();
export const BankAccountCreateSchema = z
  .object({
    bankAccountId: NewIdSchema.optional(),
    details: BankDetailsSchema,
    ledgerAccountId: IdSchema,
  })
  .strict();

export const ACCOUNT_TYPES = ['asset', 'liability', 'equity', 'revenue', 'expense'] as const;
/** A system role names the account a write kind posts to (accounts_payable, input_tax, ...). */
const SystemRoleSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,49}$/, 'lower-case letters, digits and _ (e.g. accounts_payable)');

export const AccountCreateSchema = z
  .object({
    accountId: NewIdSchema.optional(),
    code: z.string().regex(/^[A-Za-z0-9._-]{1,20}$/, 'letters, digits, dot, dash, underscore'),
    name: Text(200),
    type: z.enum(ACCOUNT_TYPES),
    systemRole: SystemRoleSchema.optional(),
  })
  .strict();
export const AccountUpdateSchema = z
  .object({
    accountId: IdSchema,
    changes: z
      .object({
        name: Text(200).optional(),
        active: z.boolean().optional(),
        /** null removes the account's system role. */
        systemRole: SystemRoleSchema.nullable().optional(),
      })
      .strict()
      .refine((c) => Object.keys(c).length > 0, { message: 'at least one change' }),
  })
  .strict();

const UserIdSchema = z.string().min(1).max(128);
export const MembershipGrantSchema = z
  .object({ userId: UserIdSchema, role: z.enum(ROLES) })
  .strict();
export const MembershipRevokeSchema = z
  .object({ userId: UserIdSchema, role: z.enum(ROLES), reason: Text(500) })
  .strict();

export const RiskSettingsUpdateSchema = z
  .object({
    moderateAmountMinor: PositiveMinorUnitsSchema,
    highAmountMinor: PositiveMinorUnitsSchema,
    highLaneApprovals: z.number().int().min(2).max(10),
  })
  .strict()
  .refine(
    (s) =>
      !DIGITS.test(String(s.highAmountMinor)) ||
      !DIGITS.test(String(s.moderateAmountMinor)) ||
      BigInt(s.highAmountMinor) >= BigInt(s.moderateAmountMinor),
    { message: 'the high threshold is at least the moderate one', path: ['highAmountMinor'] },
  );

/** The registry of write kinds and their payload schemas. */
export const WRITE_SCHEMAS = {
  'journal.post': JournalPostSchema,
  'journal.reverse': JournalReverseSchema,
  'journal.post_batch': JournalPostBatchSchema,
  'bill.post': BillPostSchema,
  'bill.post_batch': BillPostBatchSchema,
  'bill.credit': BillCreditSchema,
  'payment.send': PaymentSendSchema,
  'vendor.create': VendorCreateSchema,
  'vendor.update': VendorUpdateSchema,
  'bank_line.match': BankLineMatchSchema,
  'bill.settle': BillSettleSchema,
  'period.close': PeriodCloseSchema,
  'period.reopen': PeriodReopenSchema,
  'customer.create': CustomerCreateSchema,
  'tax_code.create': TaxCodeCreateSchema,
  'payment_terms.create': PaymentTermsCreateSchema,
  'bank_account.create': BankAccountCreateSchema,
  'account.create': AccountCreateSchema,
  'account.update': AccountUpdateSchema,
  'membership.grant': MembershipGrantSchema,
  'membership.revoke': MembershipRevokeSchema,
  'risk_settings.update': RiskSettingsUpdateSchema,
} as const;
export type WriteKind = keyof typeof WRITE_SCHEMAS;
export const WRITE_KINDS = Object.keys(WRITE_SCHEMAS) as WriteKind[];
export type WritePayload<K extends WriteKind> = z.infer<(typeof WRITE_SCHEMAS)[K]>;

/**
 * Who submits. Agents carry their write permissions (allowed_workflows of their config) and
 * the human operator accountable for them; neither may approve the agent's writes.
 */
export const SubmitterSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), userId: z.string().min(1).max(128) }).strict(),
  z
    .object({
      kind: z.literal('agent'),
      agentType: z.string().min(1).max(100),
      instanceId: z.string().min(1).max(200),
      operatorUserId: z.string().min(1).max(128),
      /** Ignored: an agent's permissions come from its stored record (agent_identities). */
      allowedWorkflows: z.array(z.string().min(1).max(100)).max(100).optional(),
    })
    .strict(),
]);
export type Submitter = z.infer<typeof SubmitterSchema>;

export const DEFAULT_APPROVAL_DUE_MS = 3 * 24 * 60 * 60 * 1000;
export const DEFAULT_APPROVAL_EXPIRE_MS = 14 * 24 * 60 * 60 * 1000;
export const MAX_APPROVAL_WINDOW_MS = 5 * 365 * 24 * 60 * 60 * 1000;

const EnvelopeSchema = z
  .object({
    orgId: z.string().min(1).max(128),
    idempotencyKey: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,200}$/, 'letters, digits and . _ : - (at most 200)'),
    submitter: SubmitterSchema,
    /** The document or event the write comes from (an invoice id, an email, a bank sync). */
    source: z
      .object({ type: z.enum(['document', 'event', 'manual']), id: z.string().min(1).max(300) })
      .strict()
      .optional(),
    kind: z.string(),
    payload: z.unknown(),
    approval: z
      .object({
        // At least a minute (no reminder every millisecond), at most five years.
        dueAfterMs: z.number().int().min(60_000).max(MAX_APPROVAL_WINDOW_MS).optional(),
        expireAfterMs: z.number().int().min(60_000).max(MAX_APPROVAL_WINDOW_MS).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export type GatewayWrite = Omit<z.infer<typeof EnvelopeSchema>, 'kind' | 'payload'> & {
  kind: WriteKind;
  payload: unknown;
};
export type GatewayWriteInput = z.input<typeof EnvelopeSchema>;
export interface WriteIssue {
  path: string;
  message: string;
}

/** Envelope, then the kind's payload schema (issue paths start at payload). */
export function parseWrite(
  raw: unknown,
): { ok: true; write: GatewayWrite } | { ok: false; issues: WriteIssue[] } {
  const env = EnvelopeSchema.safeParse(raw);
  const issues: WriteIssue[] = env.success
    ? []
    : env.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  const kind = (raw as { kind?: unknown } | null)?.kind;
  // Own keys only: "__proto__" or "constructor" is no write kind.
  if (typeof kind !== 'string' || !Object.prototype.hasOwnProperty.call(WRITE_SCHEMAS, kind)) {
    if (!issues.some((i) => i.path === 'kind'))
      issues.push({
        path: 'kind',
        message: `unknown write kind ${JSON.stringify(kind)}; known: ${WRITE_KINDS.join(', ')}`,
      });
    return { ok: false, issues };
  }
  const payload = WRITE_SCHEMAS[kind as WriteKind].safeParse(
    (raw as { payload?: unknown }).payload,
  );
  if (!payload.success)
    issues.push(
      ...payload.error.issues.map((i) => ({
        path: ['payload', ...i.path].join('.'),
        message: i.message,
      })),
    );
  if (!env.success || !payload.success || issues.length > 0) return { ok: false, issues };
  return { ok: true, write: { ...env.data, kind: kind as WriteKind, payload: payload.data } };
}

export function formatIssues(issues: WriteIssue[]): string {
  return issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ');
}

const approvalDecisionShape = z
  .object({
    decision: z.enum(['approve', 'reject']),
    approver: z
      .object({ userId: z.string().min(1).max(128), orgId: z.string().min(1).max(128) })
      .strict(),
    note: z.string().max(4000).optional(),
    /**
     * The plan the approver was shown: its revision and hash (the state view's `revision` and
     * `planHash`). A decision on another revision is refused with the current one named.
     */
    revision: z.number().int().min(0),
    planHash: z.string().regex(/^[0-9a-f]{64}$/, 'a plan hash (64 hex digits)'),
  })
  .strict();

const rejectionNeedsNote = {
  check: (d: { decision: string; note?: string | undefined }) =>
    d.decision !== 'reject' || (d.note ?? '').trim().length > 0,
  params: { message: 'a rejection needs a note saying why', path: ['note'] },
};

/** An approver's decision, sent to the waiting gateway workflow as an Update. */
export const ApprovalDecisionSchema = approvalDecisionShape.refine(
  rejectionNeedsNote.check,
  rejectionNeedsNote.params,
);
/**
 * A decision as histories hold it: those recorded before decisions named their plan carry no
 * revision or hash, and the Update handler must still read them on replay.
 */
export const RecordedApprovalDecisionSchema = approvalDecisionShape
  .partial({ revision: true, planHash: true })
  .refine(rejectionNeedsNote.check, rejectionNeedsNote.params);
export type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>;
