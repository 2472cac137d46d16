/**
 * The verbs a question uses for a figure moving between two periods ("did revenue rise from
 * 2019 to 2020", "by what percentage did operating income fall"): one vocabulary for the
 * question parser (which reads them as growth) and the yes/no reader (which tests the
 * direction), so a verb one of them knows is never a level to the other.
 */
export type ChangeDirection = 'up' | 'down';

/** Each verb's base form, its direction and every inflection a question writes. */
const VERBS: readonly { base: string; direction: ChangeDirection; forms: readonly string[] }[] = [
  { base: 'increase', direction: 'up', forms: ['increase', 'increases', 'increased'] },
  { base: 'rise', direction: 'up', forms: ['rise', 'rises', 'rose', 'risen'] },
  { base: 'grow', direction: 'up', forms: ['grow', 'grows', 'grew', 'grown'] },
  { base: 'improve', direction: 'up', forms: ['improve', 'improves', 'improved'] },
  { base: 'decrease', direction: 'down', forms: ['decrease', 'decreases', 'decreased'] },
  { base: 'decline', direction: 'down', forms: ['decline', 'declines', 'declined'] },
  { base: 'fall', direction: 'down', forms: ['fall', 'falls', 'fell', 'fallen'] },
  { base: 'drop', direction: 'down', forms: ['drop', 'drops', 'dropped'] },
];

/** A regex alternation of the base forms (the yes/no reader's "did X <verb> from A to B"). */
export const CHANGE_VERB_BASES = VERBS.map((v) => v.base).join('|');

/** The direction a base form or inflection states, or undefined for a word that is not one. */
export function changeDirectionOf(word: string): ChangeDirection | undefined {
  const w = word.toLowerCase();
  return VERBS.find((v) => v.forms.includes(w))?.direction;
}

/**
 * Whether the text moves a figure between periods with one of the verbs. "improve" is left
 * out unless asked for: whether a figure improved is a judgment on its direction, not a
 * growth rate.
 */
export function statesChange(text: string, opts: { improve?: boolean } = {}): boolean {
  const forms = VERBS.filter((v) => opts.improve || v.base !== 'improve').flatMap((v) => v.forms);
  return new RegExp(String.raw`\b(?:${forms.join('|')})\b`).test(text.toLowerCase());
}
