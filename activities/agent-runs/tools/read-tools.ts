import { and, asc, eq, ilike, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../../db/connection';
import {
  accounts,
  bankAccounts,
  customers,
  paymentTerms,
  taxCodes,
  vendors,
} from '../../../db/schema';
import {
  getDocument,
  getDocumentBytes,
  listDocuments,
  loadPages,
  searchChunks,
} from '../../../db/repositories/documents';
import { readBillDocument } from '../../bills/read-bill';
import {
  FactPeriodQuery,
  getFilingFactSet,
  queryFilingFacts,
} from '../../../db/repositories/filing-facts';
import { trialBalance } from '../../../db/repositories/ledger';
import {
  getPaymentTerms,
  getVendor,
  openBillsOfVendor,
} from '../../../db/repositories/master-data';
import { ErrorType, permanentFailure } from '../../../workflows/errors';
import type { ReadToolName, ToolInput, ToolOutput } from '../../../workflows/agent-runs/tools';
import { bankContext, bankLinesAsked } from './bank-tools';
import {
  bankAccountResolve,
  reconciliationAsked,
  reconciliationContext,
} from './reconciliation-tools';

type Impl<N extends ReadToolName> = (
  db: Db,
  orgId: string,
  input: ToolInput<N>,
) => Promise<ToolOutput<N>>;

const like = (q: string) => `%${q.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;

const masterDataSearch: Impl<'master_data_search'> = async (
  db,
  orgId,
  { entity, query, limit },
) => {
  const tables = {
    vendor: { t: vendors, label: vendors.name, code: vendors.name },
    customer: { t: customers, label: customers.name, code: customers.name },
    account: { t: accounts, label: accounts.name, code: accounts.code },
    tax_code: { t: taxCodes, label: taxCodes.name, code: taxCodes.code },
    payment_terms: { t: paymentTerms, label: paymentTerms.name, code: paymentTerms.code },
  } as const;
  const { t, label, code } = tables[entity];
  const rows = await db
    .select({ id: t.id, label, code })
    .from(t)
    .where(
      and(
        eq(t.orgId, orgId),
        query ? or(ilike(label, like(query)), ilike(code, like(query))) : undefined,
      ),
    )
    .orderBy(asc(t.id))
    .limit(limit);
  return {
    entity,
    rows: rows.map((r) => ({
      id: r.id,
      label: r.code === r.label ? r.label : `${r.code} ${r.label}`,
    })),
  };
};

const trialBalanceTool: Impl<'trial_balance'> = async (db, orgId, { asOf }) => {
  const tb = await trialBalance(db, orgId, asOf);
  return {
    asOf: tb.asOf,
    rows: tb.rows.map((r) => ({
      accountId: r.accountId,
      code: r.code,
      name: r.name,
      currency: r.currency,
      debitMinor: r.debits,
      creditMinor: r.credits,
    })),
  };
};

const bankAccountsList: Impl<'bank_accounts_list'> = async (db, orgId) => {
  const rows = await db
    .select()
    .from(bankAccounts)
    .where(
      and(
        eq(bankAccounts.orgId, orgId),
        eq(bankAccounts.ownerType, 'org'),
        isNull(bankAccounts.retiredAt),
      ),
    )
    .orderBy(asc(bankAccounts.id));
  return {
    accounts: rows.map((r) => {
      const number = r.iban ?? r.accountNumber ?? '';
      return {
        id: r.id,
        holderName: r.holderName,
        currency: r.currency,
        maskedNumber: number.length > 4 ? `…${number.slice(-4)}` : '…',
      };
    }),
  };
};

const documentSearch: Impl<'document_search'> = async (db, orgId, { query, docIds, limit }) => {
  const ids =
    docIds ?? (await listDocuments(db, orgId)).filter((d) => d.status === 'ready').map((d) => d.id);
  if (ids.length === 0) return { hits: [] };
  const hits = await searchChunks(db, orgId, ids, query, limit);
  return {
    hits: hits.map((h) => ({ documentId: h.docId, page: h.page, quote: h.quote.slice(0, 600) })),
  };
};

/** A document's identity and opening text: enough to tell a bill from a filing. */
const documentOutline: Impl<'document_outline'> = async (db, orgId, { documentId, chars }) => {
  const doc = await getDocument(db, orgId, documentId);
  if (!doc)
    throw permanentFailure(
      ErrorType.UnknownEntity,
      `unknown document ${documentId} in org ${orgId}`,
    );
  if (doc.status !== 'ready')
    throw permanentFailure(
      ErrorType.UnknownEntity,
      `document ${documentId} is ${doc.status}, not ready to read`,
    );
  const pages = await loadPages(db, orgId, documentId);
  let opening = '';
  for (const p of pages) {
    if (opening.length >= chars) break;
    opening += (opening ? '\n' : '') + p.text.slice(0, chars - opening.length);
  }
  return {
    documentId,
    title: doc.title,
    docType: doc.docType,
    mimeType: doc.mimeType,
    pageCount: pages.length,
    opening,
  };
};

/** The bundled AP context: everything a bill needs about its vendor, in one call. */
const apContext: Impl<'ap_context'> = async (db, orgId, { vendorId }) => {
  const vendor = await getVendor(db, orgId, vendorId);
  if (!vendor)
    throw permanentFailure(ErrorType.UnknownEntity, `unknown vendor ${vendorId} in org ${orgId}`);
  const [terms, tax, accts, unpaid] = await Promise.all([
    vendor.paymentTermsId
      ? getPaymentTerms(db, orgId, vendor.paymentTermsId)
      : Promise.resolve(undefined),
    db.select().from(taxCodes).where(eq(taxCodes.orgId, orgId)).orderBy(asc(taxCodes.code)),
    db
      .select()
      .from(accounts)
      .where(
        and(
          eq(accounts.orgId, orgId),
          eq(accounts.active, true),
          or(
            eq(accounts.type, 'expense'),
            sql`${accounts.systemRole} in ('accounts_payable','input_tax')`,
            vendor.defaultExpenseAccountId
              ? eq(accounts.id, vendor.defaultExpenseAccountId)
              : undefined,
          ),
        ),
      )
      .orderBy(asc(accounts.code)),
    openBillsOfVendor(db, orgId, vendorId),
  ]);
  const openBills = unpaid.map((b) => ({
    id: b.id,
    billNumber: b.billNumber,
    dueDate: b.dueDate,
    currency: b.currency,
    totalMinor: b.totalMinor.toString(),
    paidMinor: b.paidMinor.toString(),
  }));
  return {
    vendor: {
      id: vendor.id,
      name: vendor.name,
      email: vendor.email,
      taxId: vendor.taxId,
      paymentTermsId: vendor.paymentTermsId,
      defaultExpenseAccountId: vendor.defaultExpenseAccountId,
      status: vendor.status,
    },
    openBills,
    paymentTerms: terms
      ? { id: terms.id, code: terms.code, name: terms.name, dueDays: terms.dueDays }
      : null,
    taxCodes: tax.map((t) => ({
      id: t.id,
      code: t.code,
      name: t.name,
      kind: t.kind,
      rateBasisPoints: t.rateBasisPoints,
    })),
    accounts: accts.map((a) => ({
      id: a.id,
      code: a.code,
      name: a.name,
      type: a.type,
      systemRole: a.systemRole,
    })),
  };
};

/** A supplier bill read from its ingested pages (the org's own documents only). */
const billRead: Impl<'bill_read'> = async (db, orgId, { documentId }) => {
  const doc = await getDocument(db, orgId, documentId);
  if (!doc)
    throw permanentFailure(
      ErrorType.UnknownEntity,
      `unknown document ${documentId} in org ${orgId}`,
    );
  if (doc.status !== 'ready')
    throw permanentFailure(
      ErrorType.UnknownEntity,
      `document ${documentId} is ${doc.status}, not ready to read`,
    );
  const pages = await loadPages(db, orgId, documentId);
  // The stored file too: a PDF/A-3 may carry the invoice as XML, an upload may be the XML.
  const bytes = await getDocumentBytes(db, orgId, documentId);
  const read = await readBillDocument({
    mimeType: doc.mimeType,
    bytes: bytes ? new Uint8Array(bytes) : null,
    pages: pages.map((p) => p.text),
  });
  return { documentId, ...read };
};

/** A filing's inline XBRL facts, each with where its number is printed (a citable fact). */
const filingFactsTool: Impl<'filing_facts'> = async (db, orgId, input) => {
  const doc = await getDocument(db, orgId, input.documentId);
  if (!doc)
    throw permanentFailure(
      ErrorType.UnknownEntity,
      `unknown document ${input.documentId} in org ${orgId}`,
    );
  const set = await getFilingFactSet(db, orgId, input.documentId);
  if (input.period !== undefined && !FactPeriodQuery.safeParse(input.period).success)
    throw permanentFailure(
      ErrorType.InvalidToolInput,
      `period ${input.period}: a year (2024), a day (2024-09-28) or a range (2023-10-01..2024-09-28)`,
    );
  const facts = set
    ? await queryFilingFacts(db, orgId, input.documentId, {
        concept: input.concept,
        period: input.period,
        dimensions: input.dimensions,
        limit: input.limit,
      })
    : [];
  return {
    documentId: input.documentId,
    status: set?.status ?? null,
    reason: set?.reason ?? (set ? null : 'the document has no inline XBRL facts'),
    dei: Object.fromEntries(
      Object.entries(set?.dei ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'),
    ),
    facts: facts.map((f) => ({
      factId: f.factId,
      concept: f.concept,
      value: f.value,
      unit: f.unit,
      decimals: f.decimals,
      period: f.period,
      dimensions: f.dimensions,
      displayedText: f.displayedText,
      location: f.location,
    })),
  };
};

export const READ_TOOLS: { [N in ReadToolName]: Impl<N> } = {
  filing_facts: filingFactsTool,
  master_data_search: masterDataSearch,
  trial_balance: trialBalanceTool,
  bank_accounts_list: bankAccountsList,
  document_search: documentSearch,
  document_outline: documentOutline,
  ap_context: apContext,
  bank_context: bankContext,
  bank_lines_asked: bankLinesAsked,
  bank_account_resolve: bankAccountResolve,
  reconciliation_context: reconciliationContext,
  reconciliation_asked: reconciliationAsked,
  bill_read: billRead,
};
