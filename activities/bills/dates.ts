/**
 * Dates as printed on bills: ISO, numeric day/month orders, month names ("24 December 2024",
 * "24-Dec-2024") in English, French,
 * German, Dutch, Polish, Spanish, Italian and Portuguese. A numeric date whose day and month
 * could be swapped is resolved only by evidence — another date on the same document that is
 * unambiguous in the same notation, or the document's language — never by a default.
 */

const MONTHS: Record<string, number> = {};
const add = (n: number, ...names: string[]) => names.forEach((m) => (MONTHS[m] = n));
add(
  1,
  'january',
  'jan',
  'janvier',
  'janv',
  'januar',
  'jänner',
  'januari',
  'stycznia',
  'styczeń',
  'styczen',
  'sty',
  'enero',
  'ene',
  'gennaio',
  'gen',
  'janeiro',
);
add(
  2,
  'february',
  'feb',
  'février',
  'fevrier',
  'févr',
  'fevr',
  'februar',
  'februari',
  'lutego',
  'luty',
  'lut',
  'febrero',
  'febbraio',
  'fevereiro',
  'fev',
);
add(
  3,
  'march',
  'mar',
  'mars',
  'märz',
  'maerz',
  'maart',
  'mrt',
  'marca',
  'marzec',
  'marzo',
  'março',
  'marco',
);
add(4, 'april', 'apr', 'avril', 'avr', 'kwietnia', 'kwiecień', 'kwi', 'abril', 'abr', 'aprile');
add(5, 'may', 'mai', 'mei', 'maja', 'maj', 'mayo', 'maggio', 'mag', 'maio');
add(
  6,
  'june',
  'jun',
  'juin',
  'juni',
  'czerwca',
  'czerwiec',
  'cze',
  'junio',
  'giugno',
  'giu',
  'junho',
);
add(
  7,
  'july',
  'jul',
  'juillet',
  'juil',
  'juli',
  'lipca',
  'lipiec',
  'lip',
  'julio',
  'luglio',
  'lug',
  'julho',
);
add(8, 'august', 'aug', 'août', 'aout', 'augustus', 'sierpnia', 'sierpień', 'sie', 'agosto', 'ago');
add(
  9,
  'september',
  'sep',
  'sept',
  'septembre',
  'września',
  'wrzesień',
  'wrz',
  'septiembre',
  'settembre',
  'set',
  'setembro',
);
add(
  10,
  'october',
  'oct',
  'octobre',
  'oktober',
  'okt',
  'października',
  'październik',
  'paź',
  'octubre',
  'ottobre',
  'ott',
  'outubro',
  'out',
);
add(11, 'november', 'nov', 'novembre', 'listopada', 'listopad', 'lis', 'noviembre', 'novembro');
add(
  12,
  'december',
  'dec',
  'décembre',
  'decembre',
  'déc',
  'dezember',
  'dez',
  'grudnia',
  'grudzień',
  'gru',
  'diciembre',
  'dic',
  'dicembre',
  'dezembro',
);

const MONTH_WORD = `([A-Za-zÀ-ÿąćęłńóśźżĄĆĘŁŃÓŚŹŻ]{3,12})\\.?`;
const ISO_RE = /(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)/g;
const NUM_RE = /(?<![\d/.-])(\d{1,2})([-/.])(\d{1,2})\2(\d{4}|\d{2})(?![\d/.-]*\d)/g;
const DMY_WORD_RE = new RegExp(
  `(?<!\\d)(\\d{1,2})(?:(?:st|nd|rd|th|er|e)?\\.?\\s+(?:de\\s+)?${MONTH_WORD}\\s*(?:de\\s+)?,?\\s*|-${MONTH_WORD}-)(\\d{4})(?!\\d)`,
  'gu',
);
const MDY_WORD_RE = new RegExp(
  `${MONTH_WORD}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\s*,?\\s*,?\\s*(\\d{4})(?!\\d)`,
  'gu',
);

export type DateOrder = 'dmy' | 'mdy';

export interface DateMatch {
  /** YYYY-MM-DD, or null when the day/month order is ambiguous and undecided. */
  iso: string | null;
  index: number;
  end: number;
  raw: string;
  /** Both readings of an ambiguous numeric date, with its separator. */
  ambiguous?: { dmy: string; mdy: string; sep: string };
  /** The notation proven by this date (an unambiguous numeric date). */
  proves?: { sep: string; order: DateOrder };
}

function iso(y: number, m: number, d: number): string | null {
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1900 || y > 2200) return null;
  const s = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  const t = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(t.getTime()) && t.toISOString().startsWith(s) ? s : null;
}
const year = (y: string) => (y.length === 2 ? 2000 + Number(y) : Number(y));
function month(word: string): number | undefined {
  const w = word.toLowerCase().replace(/\.$/, '');
  return MONTHS[w] ?? (w.length > 3 ? MONTHS[w.slice(0, 3)] : undefined);
}

/** Every date on a line, left to right, overlapping readings removed. */
export function datesIn(line: string): DateMatch[] {
  const out: DateMatch[] = [];
  const taken = (i: number, e: number) => out.some((d) => i < d.end && e > d.index);
  const push = (d: DateMatch) => {
    if (!taken(d.index, d.end)) out.push(d);
  };
  for (const m of line.matchAll(ISO_RE)) {
    const v = iso(Number(m[1]), Number(m[2]), Number(m[3]));
    if (v) push({ iso: v, index: m.index!, end: m.index! + m[0].length, raw: m[0] });
  }
  for (const m of line.matchAll(DMY_WORD_RE)) {
    // "24 December 2024" or "24-Dec-2024" (the month word in group 2 or 3).
    const mo = month(m[2] ?? m[3]!);
    const v = mo ? iso(Number(m[4]), mo, Number(m[1])) : null;
    if (v) push({ iso: v, index: m.index!, end: m.index! + m[0].length, raw: m[0] });
  }
  for (const m of line.matchAll(MDY_WORD_RE)) {
    const mo = month(m[1]!);
    const v = mo ? iso(Number(m[3]), mo, Number(m[2])) : null;
    if (v) push({ iso: v, index: m.index!, end: m.index! + m[0].length, raw: m[0] });
  }
  for (const m of line.matchAll(NUM_RE)) {
    const [raw, a, sep, b, y] = m;
    const dmy = iso(year(y!), Number(b), Number(a));
    const mdy = iso(year(y!), Number(a), Number(b));
    const base = { index: m.index!, end: m.index! + raw.length, raw };
    if (dmy && mdy && dmy !== mdy) push({ ...base, iso: null, ambiguous: { dmy, mdy, sep: sep! } });
    else if (dmy)
      push({ ...base, iso: dmy, proves: dmy !== mdy ? { sep: sep!, order: 'dmy' } : undefined });
    else if (mdy) push({ ...base, iso: mdy, proves: { sep: sep!, order: 'mdy' } });
  }
  return out.sort((x, y2) => x.index - y2.index);
}

/**
 * Resolves an ambiguous numeric date: the order other dates in the same notation prove
 * (conflicting proofs: undecided), else the language's convention (US English writes
 * month first; every other supported language day first), else undecided.
 */
export function resolveDate(
  d: DateMatch,
  proofs: { sep: string; order: DateOrder }[],
  languageOrder: DateOrder | null,
): string | null {
  if (d.iso || !d.ambiguous) return d.iso;
  const orders = new Set(proofs.filter((p) => p.sep === d.ambiguous!.sep).map((p) => p.order));
  if (orders.size === 1) return d.ambiguous[[...orders][0]!];
  if (orders.size > 1) return null;
  if (d.ambiguous.sep === '.') return d.ambiguous.dmy; // dotted numeric dates are day first
  return languageOrder ? d.ambiguous[languageOrder] : null;
}
