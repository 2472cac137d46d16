import type { Answer, AnswerField, AnswerSchema } from './answer-schema';

/**
 * Reads a free-text answer strictly into the request's form, by rules: what the text says
 * without doubt fills the form; anything else is `unclear` (the person is asked again), never
 * guessed. Text that tries to decide something other than this request — another request id,
 * an amount the request does not name, an instruction to approve or pay something else — is
 * `refused`. Pure (also used by the model path to check what a model read).
 */
export type FreeTextReading =
  | { status: 'parsed'; answer: Answer }
  | { status: 'unclear'; reason: string }
  | { status: 'refused'; reason: string };

export interface FreeTextContext {
  requestId: string;
  title: string;
  question: string;
  evidence: unknown;
  answerSchema: AnswerSchema;
}

const UNCERTAIN =
  /\b(maybe|perhaps|not sure|unsure|don'?t know|do not know|no idea|probably|i think|i guess|might|possibly|either)\b|\?/i;
const YES =
  /\b(yes|yep|yeah|approved?|approving|ok|okay|confirm(ed)?|correct|agreed?|go ahead|accept(ed)?|true|right)\b/i;
const NO =
  /\b(no|nope|not|reject(ed)?|decline[sd]?|deny|denied|incorrect|wrong|false|don'?t|do not|never)\b/i;
const OTHER_ACTION =
  /\b(ignore (all |the )?(previous|above|prior|earlier)|instead|as well|additionally|also (approve|pay|send|transfer|post|create|release))\b/i;
// Every pattern here runs in time linear in the text (fuzzing found `request` followed by a
// run of spaces quadratic, a run of digits quadratic in the amount pattern, and `name: value` segments
// of blanks cubic): no two adjacent repeats that can match the same characters.
const REQUEST_REF =
  /\b(?:hr_[A-Za-z0-9]+|request\s+(?:id\s*)?(?:#\s*)?([A-Za-z0-9][A-Za-z0-9._:-]*\d[A-Za-z0-9._:-]*))/gi;
const CURRENCIES = 'USD|EUR|GBP|CHF|JPY|CAD|AUD';
/** Currency markers: symbols and codes may precede an amount; codes and names follow one. */
const CURRENCY = new RegExp(`([$€£])|(${CURRENCIES})|(dollars?|euros?|pounds?)`, 'gi');
const WORD = /\w/;
/** The amount just after a marker (tried at the marker's end only). */
const AMOUNT_AFTER = /\s?(\d(?:[\d,]*\d)?(?:\.\d+)?)/y;
/** The amount just before a marker, in the few characters before it. */
const AMOUNT_BEFORE = /(\d(?:[\d,]*\d)?(?:\.\d+)?)\s?$/;
const NUMBER = /-?\d(?:[\d,]*\d)?(?:\.\d+)?/g;
/** Commas only as thousands separators: `412,50` is a decimal comma or a typo, never 41250. */
const GROUPED = /^-?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;

const normNumber = (s: string): string => {
  const n = s.replace(/,/g, '');
  return n.includes('.') ? n.replace(/0+$/, '').replace(/\.$/, '') : n;
};

/** A number token's value, or null when its commas are not thousands separators. */
export function numberOf(token: string): number | null {
  if (token.includes(',') && !GROUPED.test(token)) return null;
  return Number(normNumber(token));
}

/**
 * The amounts written in a text with a currency before or after them. Driven by the markers
 * (few in any text), each looking at a bounded neighbourhood: linear in the text.
 */
function moneyIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(CURRENCY)) {
    const end = m.index + m[0].length;
    // A code is a word of its own on the side it touches the amount (`USD5`, `5 usd`, not `xusd5`).
    if (m[3] === undefined && (m[1] !== undefined || !WORD.test(text[m.index - 1] ?? ' '))) {
      AMOUNT_AFTER.lastIndex = end;
      const after = AMOUNT_AFTER.exec(text);
      if (after?.[1]) out.push(after[1]);
    }
    if (m[1] === undefined && !WORD.test(text[end] ?? ' ')) {
      const before = AMOUNT_BEFORE.exec(text.slice(Math.max(0, m.index - 40), m.index));
      if (before?.[1]) out.push(before[1]);
    }
  }
  return out;
}

/** Numbers the request itself names (title, question, evidence): an answer may repeat them. */
function namedNumbers(ctx: FreeTextContext): Set<string> {
  const hay = `${ctx.title}\n${ctx.question}\n${JSON.stringify(ctx.evidence ?? {})}`;
  const out = new Set<string>();
  for (const m of hay.matchAll(NUMBER)) out.add(normNumber(m[0].replace(/^-/, '')));
  return out;
}

/** The hostile-answer check, shared by the rules and the model path. */
export function hostility(text: string, ctx: FreeTextContext): string | null {
  for (const m of text.matchAll(REQUEST_REF)) {
    const ref = (m[1] ?? m[0]).trim();
    if (ref !== ctx.requestId && !ctx.requestId.endsWith(ref))
      return `the answer names another request (${ref}); answer only ${ctx.requestId}`;
  }
  const named = namedNumbers(ctx);
  for (const money of moneyIn(text)) {
    const amount = normNumber(money);
    if (amount && !named.has(amount))
      return `the answer names an amount (${money}) this request does not`;
  }
  const other = OTHER_ACTION.exec(text);
  if (other) return `the answer asks for another action ("${other[0]}")`;
  return null;
}

const key = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ')
    .trim();

function readField(
  f: AnswerField,
  text: string,
): { ok: true; value: unknown } | { ok: false; why: string } {
  const t = text.trim();
  switch (f.kind) {
    case 'text':
      return t ? { ok: true, value: t } : { ok: false, why: `${f.name} is empty` };
    case 'boolean': {
      const yes = YES.test(t);
      const no = NO.test(t);
      if (yes === no) return { ok: false, why: `${f.name}: neither a clear yes nor a clear no` };
      return { ok: true, value: yes };
    }
    case 'enum': {
      const hits = f.options.filter((o) =>
        new RegExp(
          `(^|[^A-Za-z0-9])${o.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z0-9])`,
          'i',
        ).test(t),
      );
      if (hits.length !== 1)
        return {
          ok: false,
          why: `${f.name}: ${hits.length === 0 ? 'none' : hits.join(' and ')} of ${f.options.join(', ')}`,
        };
      return { ok: true, value: hits[0] };
    }
    case 'number': {
      const tokens: string[] = [];
      for (const m of t.matchAll(NUMBER)) if (tokens.push(m[0]) > 1) break;
      if (tokens.length !== 1)
        return {
          ok: false,
          why: `${f.name}: ${tokens.length === 0 ? 'no' : 'several'} numbers in the answer, one expected`,
        };
      const n = numberOf(tokens[0] ?? '');
      if (n === null || !Number.isFinite(n))
        return { ok: false, why: `${f.name}: ${tokens[0]} is not a number in a clear format` };
      return { ok: true, value: n };
    }
    case 'code_per_item': {
      const pairs = keyedSegments(t);
      const all = pairs.get('all') ?? pairs.get('all items');
      const out: Record<string, string> = {};
      for (const it of f.items) {
        const v = pairs.get(key(it.id)) ?? pairs.get(key(it.label)) ?? all;
        if (!v) return { ok: false, why: `${f.name}: no code for ${it.id}` };
        const code = v.trim().split(/\s+/)[0] ?? '';
        if (f.codes.length > 0 && !f.codes.includes(code))
          return { ok: false, why: `${f.name}: ${code} for ${it.id} is not an allowed code` };
        out[it.id] = code;
      }
      return { ok: true, value: out };
    }
  }
}

/**
 * `name: value` segments of a text, split on new lines, semicolons and commas — but not on a
 * comma before a digit, which belongs to a number (`total: 1,250.00` is 1250, not 1).
 */
function keyedSegments(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const seg of text.split(/[\n;]|,(?!\d)/)) {
    // The first `:` or `=` splits name from value (indexOf, not a backtracking pattern).
    const at = seg.search(/[:=]/);
    if (at < 0) continue;
    const name = seg.slice(0, at).trim();
    const value = seg.slice(at + 1).trim();
    if (name && value) out.set(key(name), value);
  }
  return out;
}

export function readFreeTextByRules(text: string, ctx: FreeTextContext): FreeTextReading {
  const hostile = hostility(text, ctx);
  if (hostile) return { status: 'refused', reason: hostile };
  const fields = ctx.answerSchema.fields;
  if (fields.some((f) => f.kind !== 'text') && UNCERTAIN.test(text))
    return { status: 'unclear', reason: 'the answer is not certain (a question or a hedge)' };
  const answer: Answer = {};
  if (fields.length === 1 && fields[0]) {
    const r = readField(fields[0], text);
    if (!r.ok) return { status: 'unclear', reason: r.why };
    answer[fields[0].name] = r.value;
    return { status: 'parsed', answer };
  }
  const segments = keyedSegments(text);
  for (const f of fields) {
    if (f.kind === 'code_per_item') {
      const r = readField(f, text);
      if (r.ok) answer[f.name] = r.value;
      else if (f.required) return { status: 'unclear', reason: r.why };
      continue;
    }
    const seg = segments.get(key(f.name)) ?? segments.get(key(f.label));
    if (seg === undefined) {
      if (f.required) return { status: 'unclear', reason: `no value for ${f.name}` };
      continue;
    }
    const r = readField(f, seg);
    if (!r.ok) return { status: 'unclear', reason: r.why };
    answer[f.name] = r.value;
  }
  return { status: 'parsed', answer };
}
