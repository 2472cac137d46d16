import type { DocumentIndex } from '../extract-metric';
import { normalizeLabel, type MetricDefinition, type StatementKind } from '../metric-catalog';
import type { IndexedLine } from '../statement-table';

/**
 * Any printed line item, not only catalog metrics: a question's noun phrase is resolved
 * against the statement rows' own labels. A row matches when it carries the same content
 * words as the phrase (a few words that never change what a row is — "total", "net", note
 * references — aside), or when the phrase is the row's label up to its first comma
 * ("Accounts receivable trade, less allowances …"), or the label without the one-word
 * alternative a statement prints in parentheses for the other sign ("Cash provided (used) by
 * operations", "Net income (loss)"). Not up to a dash: "Cost of sales – products" is a part of
 * the cost of sales, not the total (a wrong answer on Lockheed Martin when it was tried). The
 * matched labels become a one-off
 * metric definition read by the catalog's own column, scale, statement-priority and
 * conflict rules (extract-metric.ts), so a label printed twice with different values in the
 * same kind of statement is capped below the answer floor, never guessed.
 */

/** Words that do not change which row is meant. */
const NEUTRAL = new Set(['total', 'net', 'the', 'a', 'an', 'of', 'and', 'in', 'for', 'on']);

/** Accounting-taxonomy spellings of the same word (singular/plural, US/UK). */
function stem(w: string): string {
  if (w === 'expenses') return 'expense';
  if (w === 'expenditures') return 'expenditure';
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (w.endsWith('s') && !w.endsWith('ss') && w.length > 3) return w.slice(0, -1);
  return w;
}

export function contentWords(text: string): string[] {
  return normalizeLabel(text)
    .split(' ')
    .filter((w) => w !== '' && !NEUTRAL.has(w))
    .map(stem);
}

function sameWords(a: readonly string[], b: readonly string[]): boolean {
  if (a.length === 0 || b.length === 0) return false;
  const sa = new Set(a);
  const sb = new Set(b);
  if (sa.size !== sb.size) return false;
  for (const w of sa) if (!sb.has(w)) return false;
  return true;
}

/** Rows under "Changes in …" / "(Increase) decrease in …" report a change, not the item. */
const CHANGE_CONTEXT = /\bchanges? in\b|\bincrease\b|\bdecrease\b/;

export interface LineItemMatch {
  definition: MetricDefinition;
  /** The printed labels the phrase matched, for the reader and the label check. */
  labels: string[];
}

/** "X (used) by Y" → "X by Y": a one-word parenthesis names the other sign of the same row. */
const withoutSignWord = (raw: string) => raw.replace(/\s*\([A-Za-z]+\)\s*/g, ' ').trim();

/**
 * The content words each form of a printed label is known by: the whole label, its head
 * before the first comma, and each of them without a one-word sign alternative.
 */
function labelForms(raw: string): string[][] {
  const heads = [raw];
  const comma = raw.indexOf(',');
  if (comma > 0) heads.push(raw.slice(0, comma));
  const forms = heads.flatMap((h) => [h, withoutSignWord(h)]);
  return [...new Set(forms)].map(contentWords).filter((w) => w.length > 0);
}

function rowLabelsOf(line: IndexedLine): { norm: string; raw: string }[] {
  const raw = line.row.label;
  // A label that starts in lower case continues the line above: only the joined label names it.
  if (/^[a-z]/.test(raw) && line.contextLabel)
    return [{ norm: line.contextLabel, raw: line.contextRaw ?? line.contextLabel }];
  return [{ norm: line.normLabel, raw }];
}

/**
 * The line-item definition for a phrase in this filing, or null when no printed row carries
 * it. `statement` is the statement the question names, when it names one.
 */
export function resolveLineItem(
  doc: DocumentIndex,
  phrase: string,
  statement?: StatementKind,
): LineItemMatch | null {
  const want = contentWords(phrase);
  if (want.length === 0) return null;
  const askedChange = CHANGE_CONTEXT.test(normalizeLabel(phrase));
  const matches: { norm: string; raw: string; kind: string; primary: boolean; change: boolean }[] =
    [];
  for (const page of doc.pages) {
    // The last heading (a line without figures) above a row: rows under "Changes in …"
    // on a cash-flow statement report changes of the balances they are named after.
    let heading = '';
    for (const line of page.lines) {
      if (line.row.cells.length === 0) {
        if (line.normLabel) heading = line.normLabel;
        continue;
      }
      if (line.row.cells.some((c) => c.parsed.percent)) continue;
      const change =
        (CHANGE_CONTEXT.test(heading) || CHANGE_CONTEXT.test(line.contextLabel ?? '')) &&
        line.section.kind !== 'balance';
      for (const { norm, raw } of rowLabelsOf(line)) {
        if (!askedChange && CHANGE_CONTEXT.test(norm)) continue;
        if (labelForms(raw).some((form) => sameWords(want, form)))
          matches.push({
            norm,
            raw: raw.trim(),
            kind: line.section.kind,
            primary: line.section.primary,
            change,
          });
      }
    }
  }
  // A balance named on the balance sheet and again among the cash-flow statement's changes
  // is the balance; only a phrase that names nothing else may read a change row.
  const settled = askedChange ? matches : matches.filter((m) => !m.change);
  const candidates = settled.length > 0 ? settled : matches;
  // "net" never changes a row on its own ("Accounts receivable, net"), but between rows that
  // differ by it ("Net interest income" beside "Total interest income") the phrase that says
  // "net" means the row that does.
  const netRows = candidates.filter((m) => /\bnet\b/.test(m.norm));
  const used = /\bnet\b/.test(normalizeLabel(phrase)) && netRows.length > 0 ? netRows : candidates;
  if (used.length === 0) {
    // On the statement of cash flows a payment is printed as such: "dividends" asked of it is
    // its "Dividends paid" row (an income statement's "Interest" is not its "Interest paid").
    if (statement === 'cash_flow' && !/\b(?:paid|received)\b/.test(normalizeLabel(phrase)))
      return resolveLineItem(doc, `${phrase} paid`, statement);
    return null;
  }
  const allowed = new Set(used.map((m) => m.norm));
  const printed = new Set(used.map((m) => m.raw));
  const primaryKinds = new Set(used.filter((m) => m.primary).map((m) => m.kind));
  const onlyKind =
    primaryKinds.size === 1 ? ([...primaryKinds][0] as StatementKind | 'other') : null;
  const inferred: StatementKind | undefined =
    onlyKind === 'income' || onlyKind === 'balance' || onlyKind === 'cash_flow'
      ? onlyKind
      : undefined;
  const kinds = new Set(used.map((m) => m.kind).filter((k) => k !== 'other'));
  const labels = [...allowed];
  const escaped = labels.map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const perShare = labels.some((l) => /\bper (?:common )?share\b/.test(l));
  const shares = labels.some((l) => /\bshares\b/.test(l));
  // Only amounts: a per-share figure or a share count needs its own scale rules.
  if (perShare || shares) return null;
  const instant = kinds.size > 0 && [...kinds].every((k) => k === 'balance');
  return {
    definition: {
      id: `line_item:${labels[0]}`,
      name: [...printed][0] ?? phrase,
      kind: 'money',
      // The statement the question names, else the one statement that prints the row.
      statement: statement ?? inferred ?? 'any',
      labels,
      // Exactly these labels: no other row that merely starts like one of them.
      exclude: [new RegExp(`^(?!(?:${escaped.join('|')})$)`)],
      // An issuer prints costs and outflows in parentheses in every column: the amount is
      // the magnitude. A lone negative among positives is a real negative (a benefit, a loss).
      sign: 'expense',
      instant,
      plausible: {},
      questionPhrases: [phrase.toLowerCase()],
    },
    labels: [...printed],
  };
}
