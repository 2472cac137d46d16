import { formatMoney, DEFAULT_LOCALE } from './money';
import { nameAccountsIn, type AccountNames } from './accounts';

/**
 * A fired risk rule in words, with its thresholds as money. The gateway records each rule's
 * detail for machines ("7500000 USD ≥ 2500000", minor units); an approver reads "75,000.00
 * USD is at or above the high-risk threshold of 25,000.00 USD". Details recorded before or
 * without a known shape are shown as recorded, with account ids named.
 */
export interface RuleToWord {
  rule: string;
  lane: string;
  detail: string;
}

const AMOUNT_DETAIL = /^(-?\d+) ([A-Z]{3}) ≥ (\d+)$/;

const SENTENCES: Record<string, string> = {
  irreversible_write: 'Cannot be undone by a reversal',
  payee_bank_details_new: 'Adds bank details for a payee',
  payee_bank_details_changed: "Changes a payee's bank details",
  payee_bank_details_recently_changed: "The payee's bank details changed in the last 30 days",
  reversal_of_posted_entry: 'Reverses an entry already on the books',
  period_close: 'Closes an accounting period: no more postings to it',
  period_reopen: 'Reopens a closed period: closed books change',
  system_account_remapped: "Moves a system account: other writes' postings land elsewhere",
};

export function ruleInWords(
  r: RuleToWord,
  names: AccountNames = new Map(),
  locale: string = DEFAULT_LOCALE,
): string {
  const amount = AMOUNT_DETAIL.exec(r.detail);
  if (amount && r.rule.startsWith('amount_at_or_above_')) {
    const [, value, currency, threshold] = amount as unknown as [string, string, string, string];
    const level = r.rule.includes('high') ? 'high-risk' : 'approval';
    return `Amount ${formatMoney(value, currency, locale)} is at or above the ${level} threshold of ${formatMoney(threshold, currency, locale)}`;
  }
  const fixed = SENTENCES[r.rule];
  if (fixed) return fixed;
  const named = nameAccountsIn(r.detail, names);
  return named.charAt(0).toUpperCase() + named.slice(1);
}

/** "high" → "High risk — 2 approvals". */
export function laneInWords(lane: string, requiredApprovals: number): string {
  const who =
    requiredApprovals === 0
      ? 'no approval needed'
      : `${requiredApprovals} approval${requiredApprovals === 1 ? '' : 's'}`;
  return `${lane.charAt(0).toUpperCase()}${lane.slice(1)} risk — ${who}`;
}
