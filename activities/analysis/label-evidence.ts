import type { LabelEvidence, LabelRead } from '../../workflows/analysis/label-agreement';
import type { AnswerInput, AnswerResult } from './extraction';
import { isCashPayment } from './cash-payment';
import { getFormula, getMetric } from './extraction';

/** Section kinds extraction falls back to when a table has no printed title: not headings. */
const BARE_KINDS = /^(?:income|comprehensive|balance|cash_flow|equity|capital|other|any)$/;
const MAX_PAGE_LABELS = 150;

/** The phrases the catalog accepts for a metric: its name, its question phrases, its row labels. */
function metricPhrases(id: string): string[] {
  const m = getMetric(id);
  return m ? [m.name, ...m.questionPhrases, ...m.labels] : [];
}

/** The label text of each printed row on a page: the words before its first figure. */
export function rowLabels(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const label = (/^[^\d$()]*/.exec(line)?.[0] ?? '').replace(/[\s.:–-]+$/, '').trim();
    if (label.length >= 3 && label.length <= 120 && /[a-z]/i.test(label) && label !== line.trim())
      out.push(label);
    if (out.length >= MAX_PAGE_LABELS) break;
  }
  return [...new Set(out)];
}

/** The words on a filing's first pages (its cover): the filer's own name is among them. */
export function coverWords(pages: { page: number; text: string }[]): string[] {
  // The first pages: some filings open with a bare "FORM 10-K" page before the cover.
  const cover = [...pages]
    .sort((a, b) => a.page - b.page)
    .slice(0, 3)
    .map((p) => p.text)
    .join('\n');
  const words = cover.toLowerCase().match(/[a-z0-9&]+/g) ?? [];
  return [...new Set(words)].slice(0, 400);
}

/**
 * Each row an answer read, as the label check compares it: label, heading, page, and whether
 * the filing prints it as a cash payment (cash-payment.ts). At most 20.
 */
export function rowsRead(
  inputs: readonly AnswerInput[],
  pages: { page: number; text: string }[],
  heading: (printed: string | null) => string | null,
): LabelRead[] {
  return inputs.slice(0, 20).map((i) => ({
    metric: i.metric,
    label: i.matchedLabel,
    heading: heading(i.heading ?? null),
    page: i.citation.page,
    payment: isCashPayment(
      pages.find((x) => x.page === i.citation.page)?.text ?? '',
      i.citation.quote,
      i.printed,
    ),
  }));
}

/** The row labels printed on the first four pages the rows were read from. */
export function citedPageLabels(
  read: readonly LabelRead[],
  pages: { page: number; text: string }[],
): LabelEvidence['pageLabels'] {
  const cited = [...new Set(read.map((r) => r.page))].slice(0, 4);
  return cited.flatMap((p) =>
    rowLabels(pages.find((x) => x.page === p)?.text ?? '').map((label) => ({ page: p, label })),
  );
}

/**
 * What the label agreement check needs from an answer computed by code: the question, the
 * catalog phrases of the entry extraction used, each row read (label, heading, page), the
 * filer's words, and the row labels on the cited pages.
 */
export function labelEvidenceOf(
  question: string,
  answer: Extract<AnswerResult, { status: 'answered' }>,
  pages: { page: number; text: string }[],
): LabelEvidence {
  const parsed = answer.parsed;
  const formula = parsed.formula ? getFormula(parsed.formula) : undefined;
  const catalogPhrases = formula
    ? [formula.name, ...new Set(answer.inputs.flatMap((i) => metricPhrases(i.metric)))]
    : parsed.metric
      ? metricPhrases(parsed.metric)
      : [];
  const read = rowsRead(answer.inputs, pages, (h) => (h && !BARE_KINDS.test(h) ? h : null));
  const pageLabels = citedPageLabels(read, pages);
  return {
    question,
    formula: formula !== undefined,
    entry: formula?.name ?? (parsed.metric ? (getMetric(parsed.metric)?.name ?? '') : ''),
    catalogPhrases: [...new Set(catalogPhrases)].slice(0, 200),
    read,
    filerWords: coverWords(pages),
    pageLabels,
  };
}
