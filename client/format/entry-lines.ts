import { accountLabel, type AccountNames } from './accounts';
import { formatMinorNumber, isZeroMinor, DEFAULT_LOCALE } from './money';

/**
 * A proposed or posted journal entry as plain text (CLI, MCP): one line per ledger line,
 * account by code and name, debits and credits right-aligned in their own columns.
 */
export interface EntryLineToShow {
  accountId: string;
  currency: string;
  debit: string;
  credit: string;
}

export interface EntryLineCells {
  account: string;
  currency: string;
  debit: string;
  credit: string;
}

/** A debit or credit cell: the grouped number, or empty for zero. */
export function amountCell(
  minor: string,
  currency: string,
  locale: string = DEFAULT_LOCALE,
): string {
  return isZeroMinor(minor) ? '' : formatMinorNumber(minor, currency, locale);
}

/** The cells a reader sees. */
export function entryLineCells(
  l: EntryLineToShow,
  names: AccountNames,
  locale: string = DEFAULT_LOCALE,
): EntryLineCells {
  return {
    account: accountLabel(l.accountId, names),
    currency: l.currency,
    debit: amountCell(l.debit, l.currency, locale),
    credit: amountCell(l.credit, l.currency, locale),
  };
}

export function entryLinesText(
  lines: EntryLineToShow[],
  names: AccountNames,
  locale: string = DEFAULT_LOCALE,
): string {
  const rows = lines.map((l) => entryLineCells(l, names, locale));
  const head = { account: 'Account', currency: 'Cur', debit: 'Debit', credit: 'Credit' };
  const w = (k: keyof EntryLineCells) => Math.max(...[head, ...rows].map((r) => r[k].length));
  const [wa, wc, wd, wk] = [w('account'), w('currency'), w('debit'), w('credit')];
  return [head, ...rows]
    .map((r) =>
      `${r.account.padEnd(wa)}  ${r.currency.padEnd(wc)}  ${r.debit.padStart(wd)}  ${r.credit.padStart(wk)}`.trimEnd(),
    )
    .join('\n');
}
