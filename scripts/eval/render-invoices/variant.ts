/**
 * A variant of one invoice: its language, layout, number, currency and date styles, font and
 * trap, and the seeded choice of it per (file, index).
 */

import type { CurrencyStyle, DateStyle, NumberStyle } from './formats';
import { LANGS, VOCAB, type Lang } from './languages';
import { pick, rng } from './seeded';

export type Layout = 'blocks-right' | 'header-row' | 'next-line' | 'inline-title' | 'boxed-totals';
export const LAYOUTS: Layout[] = [
  'blocks-right',
  'header-row',
  'next-line',
  'inline-title',
  'boxed-totals',
];
export type Trap = 'arithmetic' | 'two-numbers' | 'no-total' | 'credit-note';

export interface Variant {
  lang: Lang;
  layout: Layout;
  numberStyle: NumberStyle;
  currencyStyle: CurrencyStyle;
  dateStyle: DateStyle;
  dateSep: string;
  font: 'Helvetica' | 'Times' | 'Courier';
  trap: Trap | null;
  /** The set's seed (`--seed`), when one is given: it also varies the labels picked. */
  seed?: string;
}

/** The variant for (file, index): seeded by the name alone, never by what the reader does. */
export function chooseVariant(source: string, index: number, trap: Trap | null = null): Variant {
  const r = rng(`${source}#${index}`);
  // Languages rotate per index from a seeded start, so one file never repeats a language.
  const start = Math.floor(rng(source)() * LANGS.length);
  const lang = LANGS[(start + index * 2) % LANGS.length]!;
  const v = VOCAB[lang];
  const layout =
    LAYOUTS[(Math.floor(rng(`${source}!`)() * LAYOUTS.length) + index) % LAYOUTS.length]!;
  const numberStyle = pick(r, v.numberStyles);
  const currencyStyle = pick<CurrencyStyle>(r, [
    'symbol-after',
    'symbol-after',
    'symbol-before',
    'code-after',
    'code-before',
    'note',
  ]);
  const dateStyle = pick<DateStyle>(r, ['numeric', 'numeric', 'words', 'iso']);
  let dateSep = pick(r, v.seps);
  if (lang === 'en') dateSep = pick(r, ['/', 'uk-words', 'us']);
  const font = pick(r, ['Helvetica', 'Helvetica', 'Times', 'Courier'] as const);
  return { lang, layout, numberStyle, currencyStyle, dateStyle, dateSep, font, trap };
}
