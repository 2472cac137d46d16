import { resolveDate, type DateOrder } from '../dates';
import type { CheckLog } from './check-log';
import type { DateHit, LabelledValues } from './labelled-values';

/** The bill's issue and due dates (ISO), and every issue-date candidate. */
export interface BillDates {
  issueDate: string | null;
  dueDate: string | null;
  /** Each issue date as read: ISO, or "?" and the printed text when undecided. */
  issueSet: string[];
}

/**
 * The issue date (from an issue-date label, else the date beside the invoice number, else a
 * generic date label) and the due date (none before the issue date), each one date or none.
 * An ambiguous numeric date takes the order other dates on the bill prove, else the
 * language's: month first for English with dollars, day first for the other languages,
 * undecided for other English. Checks issue_date_parsed.
 */
export function settleDates(
  dateHits: DateHit[],
  proofs: LabelledValues['proofs'],
  language: string | null,
  currency: string | null,
  log: CheckLog,
): BillDates {
  const usEnglish = language === 'en' && currency === 'USD';
  const languageOrder: DateOrder | null =
    language === null ? null : language === 'en' ? (usEnglish ? 'mdy' : null) : 'dmy';
  const resolveAll = (kinds: string[]) =>
    dateHits
      .filter((h) => kinds.includes(h.kind))
      .map((h) => ({ iso: resolveDate(h.d, proofs, languageOrder), raw: h.d.raw }));
  const pick = (groups: string[][]) => {
    for (const kinds of groups) {
      const found = resolveAll(kinds);
      if (found.length > 0) return found;
    }
    return [];
  };
  const issueFound = pick([['issue_date'], ['number_dated'], ['generic_date']]);
  const issueSet = [...new Set(issueFound.map((d) => d.iso ?? `?${d.raw}`))];
  const issueDate = issueSet.length === 1 && !issueSet[0]!.startsWith('?') ? issueSet[0]! : null;
  log.check(
    'issue_date_parsed',
    issueDate ? 'pass' : 'fail',
    issueDate ??
      (issueSet.length === 0
        ? 'no invoice date is printed under a date label'
        : `undecided: ${issueSet.map((d) => d.replace(/^\?/, '')).join(', ')}`),
  );
  const dueSet = [
    ...new Set(
      resolveAll(['due_date'])
        .map((d) => d.iso)
        .filter((d): d is string => !!d),
    ),
  ];
  const dueDate =
    dueSet.length === 1 && (!issueDate || dueSet[0]! >= issueDate) ? dueSet[0]! : null;
  return { issueDate, dueDate, issueSet };
}
