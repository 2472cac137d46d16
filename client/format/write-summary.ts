import type { AccountNames } from './accounts';
import { describeBankAccount, type BankAccountView } from './bank-account';
import { entryLinesText, type EntryLineToShow } from './entry-lines';
import { DEFAULT_LOCALE } from './money';
import { laneInWords, ruleInWords, type RuleToWord } from './risk-rules';

/**
 * A write as plain text for a person reading a terminal or an agent reading MCP text: its
 * lane and rules in words, each proposed entry with named accounts and aligned amounts, and
 * the payee with its number masked. The same words as the inbox's detail view.
 */
export interface WriteToDescribe {
  kind: string;
  risk: { lane: string; requiredApprovals: number; rules: RuleToWord[] } | null;
  entries: { entryDate: string; memo: string; lines: EntryLineToShow[] }[];
  payee?: BankAccountView | null;
}

export function describeWrite(
  w: WriteToDescribe,
  names: AccountNames,
  locale: string = DEFAULT_LOCALE,
): string {
  const out: string[] = [
    `${w.kind} — ${w.risk ? laneInWords(w.risk.lane, w.risk.requiredApprovals) : 'not scored'}`,
  ];
  for (const r of w.risk?.rules ?? []) out.push(`  · ${ruleInWords(r, names, locale)}`);
  for (const e of w.entries) {
    out.push('', `Entry ${e.entryDate} — ${e.memo}`, entryLinesText(e.lines, names, locale));
  }
  if (w.payee) out.push('', `Payee: ${describeBankAccount(w.payee)}`);
  return out.join('\n');
}

/** The account ids a write mentions: its lines', and those named in rule details ("first posting to acc-…"). */
export function accountIdsIn(
  entries: { lines: { accountId: string }[] }[],
  risk: { rules: { detail: string }[] } | null,
): string[] {
  return [
    ...new Set([
      ...entries.flatMap((e) => e.lines.map((l) => l.accountId)),
      ...(risk?.rules ?? []).flatMap((r) => r.detail.match(/\bacc-[\w.-]+\b/g) ?? []),
    ]),
  ];
}
