/** How much of a filing the inline XBRL reader takes in: facts, text, nesting. */

export interface InlineXbrlLimits {
  /** More fact elements than this: the filing is read as text only, with the reason. */
  maxFacts: number;
  /** Characters kept of a non-numeric fact's value (text blocks run to hundreds of KB). */
  maxTextValue: number;
  /** Every fact element as written, duplicates not folded (the Arelle comparison reads them so). */
  keepDuplicates?: boolean;
}

export const DEFAULT_INLINE_XBRL_LIMITS: InlineXbrlLimits = {
  maxFacts: 50_000,
  maxTextValue: 4_000,
};

/** Facts, continuations and -sec-ix-hidden displays open at once, at most. */
export const MAX_OPEN_ELEMENTS = 32;
