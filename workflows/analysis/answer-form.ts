import { z } from 'zod';
import { LabelEvidenceSchema } from './label-agreement';

/**
 * The answer-form contract: what kind of quantity a question asks for (and an answer
 * delivers), at which scale and rounding, over which periods, by which operation. The
 * question is read twice, by two independent readers; the delivered answer states the form
 * of what was actually computed. The validation gate compares them field by field.
 *
 * A null field means "this reading does not determine it" — except `rounding` and `scale`,
 * which every reading determines: null there means "none asked" (or, delivered, "not
 * rounded to an asked precision" / "the table's own scale").
 */
export const QUANTITY_KINDS = [
  'currency_amount',
  'percent',
  'ratio',
  'per_share',
  'days',
  'count',
  'yes_no',
  'text',
] as const;
export const QuantityKindSchema = z.enum(QUANTITY_KINDS);
export type QuantityKind = z.infer<typeof QuantityKindSchema>;

export const FORM_SCALES = ['units', 'thousands', 'millions', 'billions'] as const;
export const FormScaleSchema = z.enum(FORM_SCALES);

export const OPERATIONS = [
  'level',
  'change',
  'percent_change',
  'cagr',
  'sum',
  'average',
  'quotient',
  'difference',
] as const;
export const OperationSchema = z.enum(OPERATIONS);
export type Operation = z.infer<typeof OperationSchema>;

export const OPERATORS = ['/', '-', '+', '*'] as const;
export const OperatorSchema = z.enum(OPERATORS);
export type Operator = z.infer<typeof OperatorSchema>;

/** A computation the question defines inline ("X is defined as A divided by B"). */
export const DefinitionSchema = z.object({
  operator: OperatorSchema,
  left: z.string(),
  right: z.string(),
});
export type Definition = z.infer<typeof DefinitionSchema>;

export const AnswerFormSchema = z.object({
  kind: QuantityKindSchema.nullable(),
  scale: FormScaleSchema.nullable(),
  currency: z.string().nullable(),
  /** Decimal places; null = no rounding asked (asked) / not rounded to an asked precision. */
  rounding: z.number().int().min(0).max(10).nullable(),
  /** "FY2019", "Q2 FY2024"; a 3-year average names three. */
  periods: z.array(z.string()).nullable(),
  periodCount: z.number().int().min(0).nullable(),
  operation: OperationSchema.nullable(),
  definition: DefinitionSchema.nullable(),
});
export type AnswerForm = z.infer<typeof AnswerFormSchema>;

/**
 * The formula an answer was computed by, at its top level: the operator and, for each side,
 * the names of every figure on that side (each figure as a list of its synonyms).
 */
export const DeliveredFormulaSchema = z.object({
  expression: z.string(),
  operator: OperatorSchema.nullable(),
  left: z.array(z.array(z.string())),
  right: z.array(z.array(z.string())),
});
export type DeliveredFormula = z.infer<typeof DeliveredFormulaSchema>;

/** What extract_metric reports beside its answer: both readings and the delivered form. */
export const FormEvidenceSchema = z.object({
  /** The question parser's reading (the one extraction acted on); null when it could not map the question. */
  asked: AnswerFormSchema.nullable(),
  /** The cue reader's reading of the same question (workflows/analysis/form-reader.ts). */
  secondReading: AnswerFormSchema,
  /** The form of what was computed; null when no structured answer was produced. */
  delivered: AnswerFormSchema.nullable(),
  deliveredFormula: DeliveredFormulaSchema.nullable(),
  /**
   * The rows read, for the label agreement check (workflows/analysis/label-agreement.ts);
   * absent for a model's reading and in runs recorded before the check existed.
   */
  labels: LabelEvidenceSchema.optional(),
});
export type FormEvidence = z.infer<typeof FormEvidenceSchema>;

export const FORM_FIELDS = [
  'kind',
  'scale',
  'currency',
  'rounding',
  'periods',
  'periodCount',
  'operation',
] as const;
export type FormField = (typeof FORM_FIELDS)[number];

/** Fields every reading determines (null is a value: "none asked"). */
const ALWAYS_DETERMINED: ReadonlySet<FormField> = new Set(['scale', 'rounding']);

/**
 * A named ratio read or computed for one period is a quotient whichever way it was reached:
 * "gross margin" and "gross profit divided by revenue" ask for the same operation.
 */
export function canonicalOperation(
  kind: QuantityKind | null,
  op: Operation | null,
): Operation | null {
  if (op === 'level' && (kind === 'percent' || kind === 'ratio' || kind === 'days'))
    return 'quotient';
  return op;
}

function show(v: unknown): string {
  if (v === null) return 'none';
  if (Array.isArray(v)) return v.join('+');
  return String(v);
}

function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => x === b[i]);
  return a === b;
}

function fieldValue(f: AnswerForm, field: FormField): unknown {
  if (field === 'operation') return canonicalOperation(f.kind, f.operation);
  return f[field];
}

export interface FieldDiff {
  field: FormField;
  a: string;
  b: string;
}

/**
 * Fields where two readings of the question disagree: compared where both determine the
 * field (scale and rounding are always determined).
 */
export function readingDisagreements(a: AnswerForm, b: AnswerForm): FieldDiff[] {
  const out: FieldDiff[] = [];
  for (const field of FORM_FIELDS) {
    const x = fieldValue(a, field);
    const y = fieldValue(b, field);
    if (!ALWAYS_DETERMINED.has(field) && (x === null || y === null)) continue;
    if (!same(x, y)) out.push({ field, a: show(x), b: show(y) });
  }
  return out;
}

/**
 * Fields where the delivered answer is not what was asked. Every field the asked form
 * determines must be matched; a scale not asked leaves the answer its table's scale.
 */
export function deliveredMismatches(asked: AnswerForm, delivered: AnswerForm): FieldDiff[] {
  const out: FieldDiff[] = [];
  for (const field of FORM_FIELDS) {
    const x = fieldValue(asked, field);
    const y = fieldValue(delivered, field);
    if (x === null && field !== 'rounding') continue;
    if (!same(x, y)) out.push({ field, a: show(x), b: show(y) });
  }
  return out;
}

/** The fields two readings agree on, the first reading winning where only it determines one. */
export function mergeReadings(primary: AnswerForm, second: AnswerForm): AnswerForm {
  const pick = <K extends keyof AnswerForm>(k: K): AnswerForm[K] =>
    primary[k] !== null ? primary[k] : second[k];
  return {
    kind: pick('kind'),
    scale: primary.scale,
    currency: pick('currency'),
    rounding: primary.rounding,
    periods: pick('periods'),
    periodCount: pick('periodCount'),
    operation: pick('operation'),
    definition: second.definition ?? primary.definition,
  };
}

/** Splits an expression at its top-level operator (outside parentheses), loosest first. */
export function splitTopLevel(
  expression: string,
): { operator: Operator; left: string; right: string } | null {
  // Percentages are "* 100" of a quotient: the operation is the quotient.
  const expr = expression
    .trim()
    .replace(/\s*[*x×]\s*100\s*$/, '')
    .trim();
  const unwrapped =
    /^\((.*)\)$/.test(expr) && balanced(expr.slice(1, -1)) ? expr.slice(1, -1) : expr;
  // In words, "A minus B divided by C" means (A - B) / C: a spelled-out "divided by" splits
  // the whole phrase before any symbol or other word does.
  const spelled = topLevelIndex(unwrapped, / divided by /);
  if (spelled)
    return {
      operator: '/',
      left: unwrapped.slice(0, spelled.at).trim(),
      right: unwrapped.slice(spelled.at + spelled.len).trim(),
    };
  const tiers: readonly (readonly [Operator, RegExp])[][] = [
    [
      ['-', /^\s(?:-|–|minus|less)\s/],
      ['+', /^\s(?:\+|plus)\s/],
    ],
    [
      ['/', /^\s?(?:\/|÷)\s?|^\s(?:divided by|over)\s/],
      ['*', /^\s(?:\*|×|times|multiplied by)\s/],
    ],
  ];
  for (const tier of tiers) {
    let depth = 0;
    let found: { operator: Operator; at: number; len: number } | null = null;
    for (let i = 0; i < unwrapped.length; i++) {
      const ch = unwrapped[i];
      if (ch === '(') depth++;
      else if (ch === ')') depth--;
      if (depth !== 0) continue;
      const rest = unwrapped.slice(i);
      for (const [operator, re] of tier) {
        const m = re.exec(rest);
        // The last operator of the loosest tier is the top (left-associative).
        if (m && i > 0) found = { operator, at: i, len: m[0].length };
      }
    }
    if (found)
      return {
        operator: found.operator,
        left: unwrapped.slice(0, found.at).trim(),
        right: unwrapped.slice(found.at + found.len).trim(),
      };
  }
  return null;
}

function topLevelIndex(s: string, re: RegExp): { at: number; len: number } | null {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')') depth--;
    if (depth !== 0) continue;
    const m = new RegExp(`^${re.source}`).exec(s.slice(i));
    if (m) return { at: i, len: m[0].length };
  }
  return null;
}

function balanced(s: string): boolean {
  let d = 0;
  for (const ch of s) {
    if (ch === '(') d++;
    else if (ch === ')') d--;
    if (d < 0) return false;
  }
  return d === 0;
}

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[^a-z0-9&%$/]+/g, ' ')
    .trim();

/**
 * Does the delivered formula compute what the question defines? Same top-level operator,
 * and every figure on each side is named on the same side of the definition.
 */
export function definitionMismatch(
  def: Definition,
  formula: DeliveredFormula | null,
): string | null {
  const defined = `${def.left} ${def.operator} ${def.right}`;
  if (!formula)
    return `the question defines the answer as ${defined}; the answer is a single read figure, not that computation`;
  if (formula.operator !== def.operator)
    return `the question defines the answer as ${defined}; delivered formula ${formula.expression} has operator ${formula.operator ?? 'none'}`;
  const side = (text: string, figures: string[][], name: string): string | null => {
    const t = ` ${norm(text)} `;
    for (const names of figures) {
      if (!names.some((n) => t.includes(` ${norm(n)} `)))
        return `${name} operand "${text}" does not name ${names[0] ?? 'the figure'} used by ${formula.expression}`;
    }
    return null;
  };
  return side(def.left, formula.left, 'left') ?? side(def.right, formula.right, 'right');
}

export interface FormCheck {
  ok: boolean;
  status: 'agree' | 'mismatch' | 'not_checked';
  asked: AnswerForm | null;
  secondReading: AnswerForm | null;
  delivered: AnswerForm | null;
  /** asked (a) vs delivered (b). */
  mismatches: FieldDiff[];
  /** question parser (a) vs cue reader (b). */
  disagreements: FieldDiff[];
  reasons: string[];
}

/**
 * The gate's form check: both readings present and agreeing, the cue reader determining at
 * least kind and operation, the delivered form matching the agreed asked form on every
 * field, and an inline definition computed as defined.
 */
export function checkAnswerForm(evidence: FormEvidence | null): FormCheck {
  const base = {
    asked: evidence?.asked ?? null,
    secondReading: evidence?.secondReading ?? null,
    delivered: evidence?.delivered ?? null,
  };
  const reasons: string[] = [];
  if (!evidence) {
    return {
      ok: false,
      status: 'mismatch',
      ...base,
      mismatches: [],
      disagreements: [],
      reasons: ['form_missing: the answer carries no asked or delivered form'],
    };
  }
  const { asked, secondReading, delivered } = evidence;
  if (!asked) reasons.push('form_unread: the question parser could not read the asked form');
  if (secondReading.kind === null)
    reasons.push('form_unread: the cue reader could not determine the quantity kind');
  if (secondReading.operation === null)
    reasons.push('form_unread: the cue reader could not determine the operation');
  const disagreements = asked ? readingDisagreements(asked, secondReading) : [];
  for (const d of disagreements)
    reasons.push(
      `form_disagreement: ${d.field} read as ${d.a} by the question parser, ${d.b} by the cue reader`,
    );
  let mismatches: FieldDiff[] = [];
  if (!delivered) reasons.push('form_missing: the answer carries no delivered form');
  else {
    const wanted = asked ? mergeReadings(asked, secondReading) : secondReading;
    mismatches = deliveredMismatches(wanted, delivered);
    for (const m of mismatches)
      reasons.push(`form_mismatch: ${m.field} asked ${m.a}, delivered ${m.b}`);
  }
  const def = secondReading.definition ?? asked?.definition ?? null;
  if (def) {
    const bad = definitionMismatch(def, evidence.deliveredFormula);
    if (bad) reasons.push(`form_definition: ${bad}`);
  }
  const ok = reasons.length === 0;
  return {
    ok,
    status: ok ? 'agree' : 'mismatch',
    ...base,
    mismatches,
    disagreements,
    reasons,
  };
}
