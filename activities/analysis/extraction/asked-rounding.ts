/**
 * The precision a question asks its answer in, as decimal places: "two decimal places", "to
 * one decimal", "with 2 decimals", "rounded to a whole number", "to the nearest million" (0 in
 * the asked scale), "nearest tenth" (1), "nearest cent" (2). Null when it asks none. "As a
 * decimal" names a form (a ratio, not a percent), never a precision. One reader for every
 * path that answers (catalog, the question's own definition, inline XBRL facts); the cue
 * reader (workflows/analysis/form-reader.ts) reads it again, independently, for the gate.
 */
/** Number words a question spells counts with ("two decimals", "three-year average"). */
export const NUMBER_WORDS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
};

const PLACES =
  /\b(\w+)[- ]decimal[- ]places?\b|\b(\w+) (?:digits?|places?) after the decimal\b|\b(?:to|with|at) (\w+) decimals?\b|\b(\w+) decimals?\b/g;

export function askedRounding(question: string): number | null {
  const q = question.toLowerCase();
  for (const m of q.matchAll(PLACES)) {
    const w = m[1] ?? m[2] ?? m[3] ?? m[4];
    if (w === undefined) continue;
    const n = /^\d$/.test(w) ? Number(w) : NUMBER_WORDS[w];
    if (n !== undefined) return n;
  }
  if (/\bround(?:ed|ing)?\b[^.?]{0,40}\b(?:whole (?:number|percent(?:age)?)|integer)\b/.test(q))
    return 0;
  if (/\bnearest (?:whole|integer|dollar|thousand|million|billion)\b/.test(q)) return 0;
  if (/\bnearest tenth\b/.test(q)) return 1;
  if (/\bnearest hundredth\b|\bnearest cent\b/.test(q)) return 2;
  return null;
}
