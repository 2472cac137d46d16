import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { z } from 'zod';
import { companyKey } from '../../workflows/bills/company-name';

/**
 * The invoices eval's dataset reading and scoring (pure, so the CI test scores the same way).
 * A dataset folder holds bills (`.pdf`, `.txt`, `.xml` e-invoices) and their expected fields: invoice2data style
 * (`<name>.json`, an array with one object whose amounts are numbers) or one `expected.json`
 * mapping file names to fields.
 */
export const FIELDS = [
  'issuer',
  'invoice_number',
  'date',
  'currency',
  'amount',
  'amount_untaxed',
  'amount_tax',
] as const;
export type Field = (typeof FIELDS)[number];
export type Fields = Partial<Record<Field, string>>;

export interface DatasetFile {
  file: string;
  path: string;
  expected: Fields;
  /** The outcome the fixture demands, when it states one. */
  expectedOutcome?: 'posted' | 'human_review';
}

const Raw = z.record(z.string(), z.unknown());
function normalizeExpected(raw: Record<string, unknown>): Fields {
  const out: Fields = {};
  for (const f of FIELDS) {
    const v = raw[f];
    if (v === undefined || v === null || v === '') continue;
    if (f.startsWith('amount')) {
      const n = typeof v === 'number' ? v.toFixed(2) : String(v);
      out[f] = /^-?\d+(\.\d+)?$/.test(n) ? Number(n).toFixed(2) : n;
    } else out[f] = String(v);
  }
  return out;
}

export function loadDataset(dir: string): DatasetFile[] {
  const files = readdirSync(dir)
    .filter((f) => /\.(pdf|txt|xml)$/i.test(f))
    .sort();
  const map = existsSync(join(dir, 'expected.json'))
    ? z.record(z.string(), Raw).parse(JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')))
    : null;
  return files.flatMap((file) => {
    let raw: Record<string, unknown> | undefined;
    if (map) raw = map[file];
    else {
      const side = join(dir, `${basename(file, extname(file))}.json`);
      if (existsSync(side)) {
        const parsed: unknown = JSON.parse(readFileSync(side, 'utf8'));
        raw = Raw.parse(Array.isArray(parsed) ? parsed[0] : parsed);
      }
    }
    if (!raw) return [];
    const outcome = raw.outcome;
    return [
      {
        file,
        path: join(dir, file),
        expected: normalizeExpected(raw),
        expectedOutcome: outcome === 'posted' || outcome === 'human_review' ? outcome : undefined,
      },
    ];
  });
}

/** Invoice numbers compare without spaces, case or a leading '#' ("# 12" is "12"). */
export const normalizeNumber = (v: string) => v.replace(/\s+/g, '').replace(/^#/, '').toUpperCase();

/**
 * Whether an extracted field is right: ids and dates exactly (numbers as normalizeNumber),
 * amounts to the cent, the issuer as the same company (legal form, case and punctuation
 * ignored; one name may extend the other by whole words: "Free SAS" is "Free").
 */
export function fieldCorrect(
  field: Field,
  got: string | null | undefined,
  expected: string,
): boolean {
  if (got === null || got === undefined) return false;
  if (field === 'invoice_number') return normalizeNumber(got) === normalizeNumber(expected);
  if (field.startsWith('amount'))
    return Math.round(Number(got) * 100) === Math.round(Number(expected) * 100);
  if (field === 'issuer') {
    const [a, b] = [companyKey(got), companyKey(expected)];
    if (!a || !b) return false;
    return a === b || ` ${a} `.includes(` ${b} `) || ` ${b} `.includes(` ${a} `);
  }
  return got.trim() === expected.trim();
}

export interface EvalItem {
  file: string;
  outcome: 'posted' | 'human_review';
  extracted: Record<Field, string | null>;
  reasons: string[];
  /** Per field present in the expected data: whether the extraction got it right. */
  correct: Partial<Record<Field, boolean>>;
  /** A posted bill whose total or invoice number differs from the expected. */
  wrongPosted: boolean;
  expectedOutcome?: 'posted' | 'human_review';
  /** What the flow did (vendor created, approvals given, submission ids). */
  trace: string[];
  ms: number;
  /** Where the fields came from: a structured e-invoice (`xml`) or the visible text. */
  source?: 'xml' | 'text' | null;
  /** For `xml`: the rules' verdict (fatal rule ids) and the page-against-XML check. */
  structured?: {
    origin: string;
    profile: string;
    typeCode: string | null;
    validation: {
      ruleset: string;
      status: string;
      fatal: string[];
      warnings: number;
      outOfProfile: string[];
    };
    crossCheck: { status: string; detail: string };
  } | null;
}

export function scoreItem(
  f: DatasetFile,
  outcome: 'posted' | 'human_review',
  extracted: Record<Field, string | null>,
  reasons: string[],
  trace: string[],
  ms: number,
): EvalItem {
  const correct: Partial<Record<Field, boolean>> = {};
  for (const field of FIELDS) {
    const exp = f.expected[field];
    if (exp !== undefined) correct[field] = fieldCorrect(field, extracted[field], exp);
  }
  const wrongPosted =
    outcome === 'posted' &&
    ((f.expected.amount !== undefined && correct.amount === false) ||
      (f.expected.invoice_number !== undefined && correct.invoice_number === false));
  return {
    file: f.file,
    outcome,
    extracted,
    reasons,
    correct,
    wrongPosted,
    expectedOutcome: f.expectedOutcome,
    trace,
    ms,
  };
}

export interface EvalSummary {
  files: number;
  posted: number;
  humanReview: number;
  straightThroughRate: number;
  wrongPosted: number;
  /** Share right per field (over the files whose expected data has it) and overall. */
  fieldAccuracy: Record<Field | 'overall', number | null>;
  /** Fixtures that state their outcome: how many ended as stated. */
  expectedOutcomeMatches: { checked: number; matched: number };
  /** Where the fields came from, and the structured invoices' verdicts. */
  sources: { xml: number; text: number };
  structured: { valid: number; invalid: number; unavailable: number; pageDisagrees: number };
}

export function summarize(items: EvalItem[]): EvalSummary {
  const posted = items.filter((i) => i.outcome === 'posted').length;
  const fieldAccuracy = {} as Record<Field | 'overall', number | null>;
  let right = 0;
  let total = 0;
  for (const field of FIELDS) {
    const scored = items.filter((i) => i.correct[field] !== undefined);
    const ok = scored.filter((i) => i.correct[field]).length;
    right += ok;
    total += scored.length;
    fieldAccuracy[field] = scored.length === 0 ? null : round(ok / scored.length);
  }
  fieldAccuracy.overall = total === 0 ? null : round(right / total);
  const checked = items.filter((i) => i.expectedOutcome !== undefined);
  return {
    files: items.length,
    posted,
    humanReview: items.length - posted,
    straightThroughRate: items.length === 0 ? 0 : round(posted / items.length),
    wrongPosted: items.filter((i) => i.wrongPosted).length,
    fieldAccuracy,
    expectedOutcomeMatches: {
      checked: checked.length,
      matched: checked.filter((i) => i.outcome === i.expectedOutcome).length,
    },
    sources: {
      xml: items.filter((i) => i.source === 'xml').length,
      text: items.filter((i) => i.source === 'text').length,
    },
    structured: {
      valid: items.filter((i) => i.structured?.validation.status === 'valid').length,
      invalid: items.filter((i) => i.structured?.validation.status === 'invalid').length,
      unavailable: items.filter((i) => i.structured?.validation.status === 'unavailable').length,
      pageDisagrees: items.filter((i) => i.structured?.crossCheck.status === 'disagrees').length,
    },
  };
}
const round = (v: number) => Math.round(v * 10000) / 10000;
