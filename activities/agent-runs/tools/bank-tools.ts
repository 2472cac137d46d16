import { and, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../../db/connection';
import { accounts, taxCodes, vendors } from '../../../db/schema';
import {
  askedLines,
  humanResolutions,
  knownLines,
  recordLines,
  resolveLines,
} from '../../../db/repositories/bank-lines';
import type { MemoryToolName, ToolInput, ToolOutput } from '../../../workflows/agent-runs/tools';
import { bankStatementStore, reconciliationRecord } from './reconciliation-tools';

/**
 * The bank transaction processor's tools over its durable memory (bank_line_classifications):
 * what it has seen, what people resolved, and the chart it posts to. Memory writes are keyed
 * by (org, line key): a retried call records nothing twice.
 */
export async function bankContext(
  db: Db,
  orgId: string,
  input: ToolInput<'bank_context'>,
): Promise<ToolOutput<'bank_context'>> {
  const chart = await db
    .select({
      id: accounts.id,
      code: accounts.code,
      name: accounts.name,
      type: accounts.type,
      active: accounts.active,
      systemRole: accounts.systemRole,
    })
    .from(accounts)
    .where(eq(accounts.orgId, orgId));
  const credit = chart.find((a) => a.systemRole === input.creditAccountRole);
  return {
    known: await knownLines(db, orgId, input.lineKeys),
    resolutions: await humanResolutions(db, orgId, input.merchantKeys),
    accounts: chart.map((a) => ({
      id: a.id,
      code: a.code,
      name: a.name,
      type: a.type,
      active: a.active,
    })),
    creditAccountId: credit?.id ?? null,
    taxCodes: await db
      .select({
        id: taxCodes.id,
        code: taxCodes.code,
        rateBasisPoints: taxCodes.rateBasisPoints,
        effectiveFrom: taxCodes.effectiveFrom,
        effectiveTo: taxCodes.effectiveTo,
        accountId: taxCodes.accountId,
      })
      .from(taxCodes)
      .where(eq(taxCodes.orgId, orgId)),
    vendors: (
      await db
        .select({ name: vendors.name, accountId: vendors.defaultExpenseAccountId })
        .from(vendors)
        .where(
          and(
            eq(vendors.orgId, orgId),
            eq(vendors.status, 'active'),
            isNotNull(vendors.defaultExpenseAccountId),
          ),
        )
    ).flatMap((v) => (v.accountId ? [{ name: v.name, accountId: v.accountId }] : [])),
  };
}

export async function bankLinesAsked(
  db: Db,
  orgId: string,
  input: ToolInput<'bank_lines_asked'>,
): Promise<ToolOutput<'bank_lines_asked'>> {
  const rows = await askedLines(db, orgId, input.requestId, {
    ...(input.after === undefined ? {} : { after: input.after }),
    limit: input.limit,
  });
  return {
    next: rows.length === input.limit ? (rows[rows.length - 1]?.lineKey ?? null) : null,
    lines: rows.map((r) => ({
      lineKey: r.lineKey,
      statementRef: r.statementRef,
      entryDate: r.entryDate,
      amountMinor: r.amountMinor.toString(),
      currency: r.currency,
      merchant: r.merchant,
      merchantKey: r.merchantKey,
      cardKey: r.cardKey,
      taxCode: r.taxCode,
      status: 'asked' as const,
      accountId: null,
      requestId: r.requestId,
      creditAccountId: r.creditAccountId,
    })),
  };
}

type MemoryImpl<N extends MemoryToolName> = (
  db: Db,
  orgId: string,
  runId: string,
  input: ToolInput<N>,
) => Promise<ToolOutput<N>>;

export const MEMORY_TOOLS: { [N in MemoryToolName]: MemoryImpl<N> } = {
  bank_lines_record: async (db, orgId, runId, input) => ({
    recorded: await recordLines(db, orgId, runId, input.lines),
  }),
  bank_lines_resolve: async (db, orgId, _runId, input) => ({
    resolved: await resolveLines(db, orgId, input.requestId, input.resolutions),
  }),
  bank_statement_store: bankStatementStore,
  reconciliation_record: reconciliationRecord,
};
