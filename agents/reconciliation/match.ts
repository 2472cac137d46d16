import { companyKey } from '../../workflows/bills/company-name';

/**
 * The reconciliation agent's matching rules, pure (they run inside the agent run workflow).
 * A bank line (signed: money in positive) is matched, in this order:
 *
 *  a) to a posted entry that no bank line is matched to yet and that moves exactly the line's
 *     amount on the bank's ledger account, dated within `entryWindowDays` of the booking
 *     (a `payment.send` entry, a transfer posted by hand, …) → bank_line.match;
 *  b) money out only: to an open bill of the same currency whose total is exactly what left the
 *     account, booked between `billDaysBefore` days before the bill date and `billDaysAfterDue`
 *     days after its due date, with evidence beyond the amount — the bill number in the
 *     reference or description (spacing, case, separators and leading zeros ignored, never
 *     inside a longer number or word), or the counterparty being the vendor (its account
 *     number, or its name without legal form) → bill.settle.
 *
 * Automatic only with exactly one candidate holding all the evidence, and only when that
 * candidate is nobody else's: two lines that would take the same entry or bill are both asked.
 * Several candidates, amount-only evidence, or a bill the line names or whose vendor it pays
 * but for another amount (partial or over-payment) → asked. Nothing at all → handed on.
 */
export interface MatchLine {
  id: string;
  bookedOn: string;
  /** Signed minor units: money in positive, money out negative. */
  amountMinor: string;
  currency: string;
  description: string;
  reference: string | null;
  counterpartyName: string | null;
  counterpartyAccount: string | null;
}
export interface EntryCandidate {
  entryId: string;
  entryDate: string;
  /** Net movement on the bank's ledger account: debit (money in) positive. */
  netMinor: string;
  memo: string;
}
export interface BillCandidate {
  id: string;
  billNumber: string;
  billDate: string;
  dueDate: string;
  currency: string;
  totalMinor: string;
  vendorId: string;
  vendorName: string;
  /** The vendor's IBANs / account numbers. */
  vendorAccounts: string[];
}
export interface MatchPolicy {
  entryWindowDays: number;
  billDaysBefore: number;
  billDaysAfterDue: number;
}
export const DEFAULT_MATCH_POLICY: MatchPolicy = {
  entryWindowDays: 7,
  billDaysBefore: 5,
  billDaysAfterDue: 45,
};

export type Evidence = 'amount' | 'reference' | 'counterparty_account' | 'counterparty_name';
export interface AskCandidate {
  /** An entry id (rule a) or a bill id (rule b). */
  id: string;
  kind: 'entry' | 'bill';
  label: string;
  evidence: Evidence[];
}
export type Decision =
  | { kind: 'match_entry'; lineId: string; entryId: string }
  | { kind: 'settle_bill'; lineId: string; billId: string; evidence: Evidence[] }
  | { kind: 'ask'; lineId: string; reason: string; candidates: AskCandidate[] }
  | { kind: 'none'; lineId: string };

const DAY_MS = 86_400_000;
const dayOf = (d: string) => Date.UTC(+d.slice(0, 4), +d.slice(5, 7) - 1, +d.slice(8, 10)) / DAY_MS;
export const daysBetween = (a: string, b: string) => Math.abs(dayOf(a) - dayOf(b));
export function addDays(d: string, n: number): string {
  return new Date((dayOf(d) + n) * DAY_MS).toISOString().slice(0, 10);
}

/** An account number compared without spaces, dashes and case. */
export const accountKey = (n: string) => n.replace(/[\s-]/g, '').toUpperCase();

/**
 * The pattern that finds a bill number in free text: its letters and digits in order, any of
 * space - / _ # between them, case ignored, leading zeros of each digit run optional on both
 * sides, and no letter or digit right before or after (so "INV-12" is not found in "INV-123").
 * Null for a number with fewer than three letters or digits: too short to be evidence.
 */
export function billNumberPattern(billNumber: string): RegExp | null {
  const upper = billNumber.toUpperCase();
  if (upper.replace(/[^A-Z0-9]/g, '').length < 3) return null;
  // Runs of letters or digits of the number as printed ("RE-2024-0815": RE, 2024, 0815).
  const runs = upper.match(/[0-9]+|[A-Z]+/g) ?? [];
  const SEP = '[\\s\\-/_#]*';
  const parts = runs.map((run) => {
    if (/^[0-9]/.test(run)) {
      const significant = run.replace(/^0+(?=[0-9])/, '');
      return `(?:0${SEP})*${[...significant].join(SEP)}`;
    }
    return [...run].join(SEP);
  });
  return new RegExp(`(?<![A-Z0-9])${parts.join(SEP)}(?![A-Z0-9])`, 'i');
}

/** Whether the line's reference or description names the bill number. */
export function namesBill(line: Pick<MatchLine, 'reference' | 'description'>, billNumber: string) {
  const re = billNumberPattern(billNumber);
  if (!re) return false;
  return [line.reference ?? '', line.description].some((t) => re.test(t));
}

/** Evidence beyond the amount that the line is about this bill. */
export function billEvidence(line: MatchLine, bill: BillCandidate): Evidence[] {
  const ev: Evidence[] = [];
  if (namesBill(line, bill.billNumber)) ev.push('reference');
  const acct = line.counterpartyAccount ? accountKey(line.counterpartyAccount) : '';
  if (acct.length >= 6 && bill.vendorAccounts.some((a) => accountKey(a) === acct))
    ev.push('counterparty_account');
  const name = line.counterpartyName ? companyKey(line.counterpartyName) : '';
  if (name.length >= 3 && name === companyKey(bill.vendorName)) ev.push('counterparty_name');
  return ev;
}

const inBillWindow = (line: MatchLine, bill: BillCandidate, p: MatchPolicy) =>
  dayOf(line.bookedOn) >= dayOf(bill.billDate) - p.billDaysBefore &&
  dayOf(line.bookedOn) <= dayOf(bill.dueDate) + p.billDaysAfterDue;

const minorLabel = (minor: string) => {
  const neg = minor.startsWith('-');
  const digits = (neg ? minor.slice(1) : minor).padStart(3, '0');
  return `${neg ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
};
const billLabel = (b: BillCandidate, ev: Evidence[]) =>
  `bill ${b.billNumber} of ${b.vendorName}, ${minorLabel(b.totalMinor)} ${b.currency}, due ${b.dueDate}${ev.length > 0 ? ` (${ev.join(', ')})` : ''}`;
const entryLabel = (e: EntryCandidate) =>
  `entry ${e.entryId} of ${e.entryDate}, ${minorLabel(e.netMinor)}: ${e.memo}`.slice(0, 300);

/** One line on its own (before the statement-wide check that a candidate is nobody else's). */
export function decideLine(
  line: MatchLine,
  entries: readonly EntryCandidate[],
  bills: readonly BillCandidate[],
  policy: MatchPolicy = DEFAULT_MATCH_POLICY,
): Decision {
  const amount = BigInt(line.amountMinor);
  if (amount === 0n) return { kind: 'none', lineId: line.id };
  // a) a posted entry moving exactly this amount on the bank's ledger account.
  const byEntry = entries.filter(
    (e) =>
      BigInt(e.netMinor) === amount &&
      daysBetween(e.entryDate, line.bookedOn) <= policy.entryWindowDays,
  );
  if (byEntry.length === 1)
    return { kind: 'match_entry', lineId: line.id, entryId: byEntry[0]!.entryId };
  if (byEntry.length > 1)
    return {
      kind: 'ask',
      lineId: line.id,
      reason: `${byEntry.length} posted entries move this amount on the bank account`,
      candidates: byEntry.map((e) => ({
        id: e.entryId,
        kind: 'entry',
        label: entryLabel(e),
        evidence: ['amount'],
      })),
    };
  // b) money out paying an open bill (customer invoices have no table: inflows stop at a).
  if (amount > 0n) return { kind: 'none', lineId: line.id };
  const out = -amount;
  const sameCcy = bills.filter(
    (b) => b.currency === line.currency && inBillWindow(line, b, policy),
  );
  const full: { bill: BillCandidate; ev: Evidence[] }[] = [];
  const partial: { bill: BillCandidate; ev: Evidence[] }[] = [];
  for (const b of sameCcy) {
    const ev = billEvidence(line, b);
    const total = BigInt(b.totalMinor);
    if (total === out) full.push({ bill: b, ev });
    // Another amount: only a bill the line names, or a smaller payment to the bill's vendor.
    else if (ev.includes('reference') || (ev.length > 0 && out < total))
      partial.push({ bill: b, ev });
  }
  const strong = full.filter((c) => c.ev.length > 0);
  // Among several that fit, the one bill the line names is the one (the others only share the
  // vendor); a line that also names another bill is never automatic.
  const named = strong.filter((c) => c.ev.includes('reference'));
  const chosen = strong.length === 1 ? strong[0] : named.length === 1 ? named[0] : undefined;
  if (chosen && partial.every((p) => !p.ev.includes('reference')))
    return {
      kind: 'settle_bill',
      lineId: line.id,
      billId: chosen.bill.id,
      evidence: ['amount', ...chosen.ev],
    };
  const offered = [...(strong.length > 0 ? strong : full), ...partial];
  if (offered.length === 0) return { kind: 'none', lineId: line.id };
  const reason =
    strong.length > 1
      ? `${strong.length} open bills of this amount fit the evidence`
      : strong.length === 1
        ? 'one bill fits, but the line also names another bill'
        : full.length > 0
          ? `only the amount matches ${full.length} open bill(s): no reference, no counterparty`
          : `the line names or pays the vendor of ${partial.length} open bill(s) for another amount (partial or over-payment)`;
  return {
    kind: 'ask',
    lineId: line.id,
    reason,
    candidates: offered.map((c) => ({
      id: c.bill.id,
      kind: 'bill',
      label: billLabel(c.bill, c.ev),
      evidence: [...(BigInt(c.bill.totalMinor) === out ? (['amount'] as const) : []), ...c.ev],
    })),
  };
}

/**
 * Every line of a statement: each decided alone, then an automatic match whose entry or bill
 * another line would also take automatically (or is offered to another line) becomes a question.
 */
export function reconcile(
  lines: readonly MatchLine[],
  entries: readonly EntryCandidate[],
  bills: readonly BillCandidate[],
  policy: MatchPolicy = DEFAULT_MATCH_POLICY,
): Decision[] {
  const decisions = lines.map((l) => decideLine(l, entries, bills, policy));
  const claims = new Map<string, number>();
  const claimOf = (d: Decision): string[] =>
    d.kind === 'match_entry'
      ? [d.entryId]
      : d.kind === 'settle_bill'
        ? [d.billId]
        : d.kind === 'ask'
          ? d.candidates.map((c) => c.id)
          : [];
  for (const d of decisions) for (const id of claimOf(d)) claims.set(id, (claims.get(id) ?? 0) + 1);
  return decisions.map((d, i) => {
    if (d.kind !== 'match_entry' && d.kind !== 'settle_bill') return d;
    const id = d.kind === 'match_entry' ? d.entryId : d.billId;
    if ((claims.get(id) ?? 0) <= 1) return d;
    const line = lines[i]!;
    const candidate: AskCandidate =
      d.kind === 'match_entry'
        ? {
            id,
            kind: 'entry',
            label: entryLabel(entries.find((e) => e.entryId === id)!),
            evidence: ['amount'],
          }
        : {
            id,
            kind: 'bill',
            label: billLabel(
              bills.find((b) => b.id === id)!,
              d.evidence,
            ),
            evidence: d.evidence,
          };
    return {
      kind: 'ask',
      lineId: line.id,
      reason: `another line of the statement would take the same ${candidate.kind}`,
      candidates: [candidate],
    };
  });
}

/** A person's answer for one asked line: one of the ids offered to it, or `none`. */
export type AnswerAction =
  | { kind: 'match_entry'; lineId: string; entryId: string }
  | { kind: 'settle_bill'; lineId: string; billId: string }
  | { kind: 'hand_on'; lineId: string }
  | { kind: 'invalid'; lineId: string; reason: string };

export const NONE = 'none';

/** How an offered candidate is remembered (bank_line_reconciliations.candidates): `bill:<id>`. */
export const candidateToken = (c: { id: string; kind: 'entry' | 'bill' }) => `${c.kind}:${c.id}`;
export function candidateOfToken(t: string): { id: string; kind: 'entry' | 'bill' } | null {
  const m = /^(entry|bill):(.+)$/.exec(t);
  return m ? { kind: m[1] as 'entry' | 'bill', id: m[2]! } : null;
}

/**
 * Validates the answers of a request against what each line was offered: `none` hands the line
 * on; an id offered to it settles (bill) or matches (entry); anything else — no answer, an id
 * offered to another line, the same id answered for two lines — leaves the line asked.
 */
export function applyAnswers(
  asked: readonly { id: string; candidates: readonly { id: string; kind: 'entry' | 'bill' }[] }[],
  codeOf: ReadonlyMap<string, string>,
): AnswerAction[] {
  const used = new Map<string, number>();
  for (const l of asked) {
    const c = codeOf.get(l.id);
    if (c && c !== NONE) used.set(c, (used.get(c) ?? 0) + 1);
  }
  return asked.map((l): AnswerAction => {
    const code = codeOf.get(l.id);
    if (code === undefined) return { kind: 'invalid', lineId: l.id, reason: 'no answer' };
    if (code === NONE) return { kind: 'hand_on', lineId: l.id };
    const offered = l.candidates.find((c) => c.id === code);
    if (!offered)
      return { kind: 'invalid', lineId: l.id, reason: `${code} was not offered for this line` };
    if ((used.get(code) ?? 0) > 1)
      return {
        kind: 'invalid',
        lineId: l.id,
        reason: `${code} was answered for ${used.get(code)} lines`,
      };
    return offered.kind === 'bill'
      ? { kind: 'settle_bill', lineId: l.id, billId: code }
      : { kind: 'match_entry', lineId: l.id, entryId: code };
  });
}
