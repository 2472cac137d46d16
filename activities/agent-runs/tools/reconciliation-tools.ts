import type { Db } from '../../../db/connection';
import { getBankAccount } from '../../../db/repositories/master-data';
import {
  askedReconciliations,
  openBillsBetween,
  orgBankAccountsByNumber,
  recordReconciliations,
  storeStatementLines,
  unmatchedEntriesOn,
} from '../../../db/repositories/reconciliation';
import { ErrorType, permanentFailure } from '../../../workflows/errors';
import type { ToolInput, ToolOutput } from '../../../workflows/agent-runs/tools';

/**
 * The reconciliation agent's tools: which bank account a statement belongs to, storing its
 * lines (source data, once per externalId), the candidates they may match, and the agent's
 * memory of what it decided per line. Stores and records are idempotent under retry.
 */
export async function bankAccountResolve(
  db: Db,
  orgId: string,
  input: ToolInput<'bank_account_resolve'>,
): Promise<ToolOutput<'bank_account_resolve'>> {
  const numbers = [input.iban, input.number].filter((n): n is string => !!n);
  const found = await orgBankAccountsByNumber(db, orgId, numbers);
  const label = numbers.join(' / ') || '(no number)';
  const usable = found.filter((a) => a.currency === input.currency && a.ledgerAccountId);
  if (usable.length === 1) {
    const a = usable[0]!;
    return {
      bankAccount: {
        id: a.id,
        holderName: a.holderName,
        currency: a.currency,
        ledgerAccountId: a.ledgerAccountId!,
      },
      reason: null,
    };
  }
  if (usable.length > 1)
    return {
      bankAccount: null,
      reason: `${usable.length} active bank accounts of the org have the number ${label} in ${input.currency} (${usable.map((a) => a.id).join(', ')})`,
    };
  if (found.length > 0)
    return {
      bankAccount: null,
      reason: `the org's bank account ${label} holds ${found.map((a) => a.currency).join(', ')}, not ${input.currency}`,
    };
  return {
    bankAccount: null,
    reason: `no active bank account of the org has the number ${label}`,
  };
}

async function requireOrgAccount(db: Db, orgId: string, bankAccountId: string) {
  const a = await getBankAccount(db, orgId, bankAccountId);
  if (!a || a.ownerType !== 'org' || !a.ledgerAccountId || a.retiredAt)
    throw permanentFailure(
      ErrorType.UnknownEntity,
      `${bankAccountId} is not an active bank account of org ${orgId} with a ledger account`,
    );
  return { ...a, ledgerAccountId: a.ledgerAccountId };
}

export async function bankStatementStore(
  db: Db,
  orgId: string,
  runId: string,
  input: ToolInput<'bank_statement_store'>,
): Promise<ToolOutput<'bank_statement_store'>> {
  const account = await requireOrgAccount(db, orgId, input.bankAccountId);
  const foreign = input.lines.find((l) => l.currency !== account.currency);
  if (foreign)
    throw permanentFailure(
      ErrorType.InvalidToolInput,
      `line ${foreign.externalId} is in ${foreign.currency}; bank account ${account.id} holds ${account.currency}`,
    );
  return storeStatementLines(db, orgId, runId, account.id, input.lines);
}

export async function reconciliationContext(
  db: Db,
  orgId: string,
  input: ToolInput<'reconciliation_context'>,
): Promise<ToolOutput<'reconciliation_context'>> {
  const account = await requireOrgAccount(db, orgId, input.bankAccountId);
  const [entries, bills] = await Promise.all([
    unmatchedEntriesOn(db, orgId, account.ledgerAccountId, account.currency, input.from, input.to),
    openBillsBetween(db, orgId, account.currency, input.from, input.to),
  ]);
  return { ledgerAccountId: account.ledgerAccountId, currency: account.currency, entries, bills };
}

export async function reconciliationRecord(
  db: Db,
  orgId: string,
  runId: string,
  input: ToolInput<'reconciliation_record'>,
): Promise<ToolOutput<'reconciliation_record'>> {
  return { recorded: await recordReconciliations(db, orgId, runId, input.lines) };
}

export async function reconciliationAsked(
  db: Db,
  orgId: string,
  input: ToolInput<'reconciliation_asked'>,
): Promise<ToolOutput<'reconciliation_asked'>> {
  return askedReconciliations(db, orgId, input.requestId);
}
