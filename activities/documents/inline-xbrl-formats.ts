/**
 * The inline XBRL transformation registry formats filings use (ixt 1–5 and the SEC's ixt-sec),
 * and exact decimal arithmetic for `scale` and `sign`: values stay decimal strings, never
 * floats, so 118,254 at scale 6 is exactly 118254000000.
 */

/** The result of a transformation: the value, or why the displayed text does not fit it. */
export type FormatResult = { ok: true; value: string } | { ok: false; reason: string };

const ok = (value: string): FormatResult => ({ ok: true, value });
const bad = (reason: string): FormatResult => ({ ok: false, reason });

/** Whitespace as filings print it (nbsp, thin spaces) folded to one ASCII space, trimmed. */
export function normalizeSpace(s: string): string {
  return s.replace(/[\s\u00a0\u2000-\u200b\u202f\u205f\u3000\ufeff]+/g, ' ').trim();
}

/** A decimal string in canonical form: no leading zeros, no trailing fraction zeros, no -0. */
export function canonicalDecimal(s: string): string {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(s);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) throw new Error(`not a decimal: ${s}`);
  const int = (m[2] ?? '').replace(/^0+/, '') || '0';
  const frac = (m[3] ?? '').replace(/0+$/, '');
  const body = frac ? `${int}.${frac}` : int;
  return m[1] === '-' && body !== '0' ? `-${body}` : body;
}

/** `value` × 10^scale, exactly, by moving the decimal point. */
export function shiftDecimal(value: string, scale: number): string {
  const c = canonicalDecimal(value);
  const neg = c.startsWith('-');
  const [int = '0', frac = ''] = (neg ? c.slice(1) : c).split('.');
  let digits = int + frac;
  let point = int.length + scale;
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits += '0'.repeat(point - digits.length);
  const out = canonicalDecimal(`${digits.slice(0, point) || '0'}.${digits.slice(point)}`);
  return neg && out !== '0' ? `-${out}` : out;
}

export function negateDecimal(value: string): string {
  const c = canonicalDecimal(value);
  if (c === '0') return c;
  return c.startsWith('-') ? c.slice(1) : `-${c}`;
}

/** Names across registry versions (ixt 1 `numdotdecimal` … ixt 4 `num-dot-decimal`). */
const ALIASES: Record<string, string> = {
  numdotdecimal: 'num-dot-decimal',
  numcommadecimal: 'num-comma-decimal',
  numcommadot: 'num-dot-decimal',
  numspacedot: 'num-dot-decimal',
  numdotcomma: 'num-comma-decimal',
  numspacecomma: 'num-comma-decimal',
  zerodash: 'fixed-zero',
  'num-dot-decimal-apos': 'num-dot-decimal',
  nocontent: 'fixed-empty',
  booleanfalse: 'fixed-false',
  booleantrue: 'fixed-true',
  datemonthdayyear: 'date-month-day-year',
  datemonthnamedayyearen: 'date-monthname-day-year-en',
  datelongmonthdayyear: 'date-monthname-day-year-en',
  dateshortmonthdayyear: 'date-monthname-day-year-en',
  datelongusmonthdayyear: 'date-monthname-day-year-en',
  datedaymonthyear: 'date-day-month-year',
  datedaymonthnameyearen: 'date-day-monthname-year-en',
  datemonthnameyearen: 'date-monthname-year-en',
  datelongmonthyear: 'date-monthname-year-en',
  datemonthday: 'date-month-day',
  datemonthnamedayen: 'date-monthname-day-en',
  datelongmonthday: 'date-monthname-day-en',
  dateyearmonthday: 'date-year-month-day',
};

/** The format's local name in its newest spelling (`ixt:numdotdecimal` → `num-dot-decimal`). */
export function formatName(format: string): string {
  const local = (format.includes(':') ? format.slice(format.indexOf(':') + 1) : format).trim();
  const lower = local.toLowerCase();
  return ALIASES[lower] ?? lower;
}

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
const monthOf = (name: string): number | undefined =>
  MONTHS[name.toLowerCase().replace(/\.$/, '').slice(0, 3)];
const pad2 = (n: number) => String(n).padStart(2, '0');
const year4 = (y: string) => (y.length === 2 ? `20${y}` : y.padStart(4, '0'));

function date(y: string | undefined, m: number | undefined, d: string | undefined): FormatResult {
  if (m === undefined || m < 1 || m > 12) return bad('no month');
  const day = d === undefined ? undefined : Number(d);
  if (day !== undefined && (day < 1 || day > 31)) return bad('day out of range');
  if (y === undefined) return day === undefined ? bad('no day') : ok(`--${pad2(m)}-${pad2(day)}`);
  return ok(day === undefined ? `${year4(y)}-${pad2(m)}` : `${year4(y)}-${pad2(m)}-${pad2(day)}`);
}

const SMALL: Record<string, number> = {
  no: 0,
  none: 0,
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const MULTIPLIERS: Record<string, bigint> = {
  thousand: 1_000n,
  million: 1_000_000n,
  billion: 1_000_000_000n,
};

/** English number words ("no", "three", "twenty-five", "one hundred two thousand"). */
export function numberWords(text: string): FormatResult {
  const words = text
    .toLowerCase()
    .replace(/[-,]/g, ' ')
    .split(/\s+/)
    .filter((w) => w && w !== 'and');
  if (words.length === 0) return bad('no number words');
  if (words.length === 1 && /^\d+$/.test(words[0] ?? '')) return ok(canonicalDecimal(words[0]!));
  let total = 0n;
  let group = 0n;
  for (const w of words) {
    const small = SMALL[w];
    if (small !== undefined) group += BigInt(small);
    else if (w === 'hundred') group *= 100n;
    else if (MULTIPLIERS[w] !== undefined) {
      total += group * MULTIPLIERS[w];
      group = 0n;
    } else return bad(`"${w}" is not a number word`);
  }
  return ok(String(total + group));
}

const FILER_CATEGORIES: Record<string, string> = {
  'large accelerated filer': 'Large Accelerated Filer',
  'accelerated filer': 'Accelerated Filer',
  'non-accelerated filer': 'Non-accelerated Filer',
  'smaller reporting company': 'Non-accelerated Filer',
};

/** ixt-sec:stateprovnameen: US states, DC and territories to their USPS codes. */
const STATES: Record<string, string> = Object.fromEntries(
  (
    'Alabama AL|Alaska AK|Arizona AZ|Arkansas AR|California CA|Colorado CO|Connecticut CT|' +
    'Delaware DE|District of Columbia DC|Florida FL|Georgia GA|Hawaii HI|Idaho ID|Illinois IL|' +
    'Indiana IN|Iowa IA|Kansas KS|Kentucky KY|Louisiana LA|Maine ME|Maryland MD|' +
    'Massachusetts MA|Michigan MI|Minnesota MN|Mississippi MS|Missouri MO|Montana MT|' +
    'Nebraska NE|Nevada NV|New Hampshire NH|New Jersey NJ|New Mexico NM|New York NY|' +
    'North Carolina NC|North Dakota ND|Ohio OH|Oklahoma OK|Oregon OR|Pennsylvania PA|' +
    'Rhode Island RI|South Carolina SC|South Dakota SD|Tennessee TN|Texas TX|Utah UT|' +
    'Vermont VT|Virginia VA|Washington WA|West Virginia WV|Wisconsin WI|Wyoming WY|' +
    'American Samoa AS|Guam GU|Northern Mariana Islands MP|Puerto Rico PR|Virgin Islands VI'
  )
    .split('|')
    .map((e) => {
      const at = e.lastIndexOf(' ');
      return [e.slice(0, at).toLowerCase(), e.slice(at + 1)];
    }),
);

/** ixt-sec:exchnameen: the exchange names filings print, to the SEC's exchange codes. */
function exchangeCode(name: string): string | undefined {
  const n = name
    .toLowerCase()
    .replace(/^the /, '')
    .replace(/,? (llc|inc\.?)$/, '');
  if (/^nasdaq/.test(n)) return 'NASDAQ';
  if (/^nyse american/.test(n)) return 'NYSEAMER';
  if (/^nyse arca/.test(n)) return 'NYSEArca';
  if (/^(new york stock exchange|nyse)\b/.test(n)) return 'NYSE';
  if (/^cboe/.test(n)) return 'CBOE';
  return undefined;
}

function duration(text: string, unit: 'Y' | 'M' | 'D'): FormatResult {
  const t = normalizeSpace(text);
  const n = /^\d+(\.\d+)?$/.test(t) ? t : undefined;
  const words = n ?? (numberWords(t).ok ? (numberWords(t) as { value: string }).value : undefined);
  if (words === undefined) return bad('not a duration');
  if (!words.includes('.')) return ok(`P${canonicalDecimal(words)}${unit}`);
  // A fractional count (2.5 years) is written in the next smaller unit, as Arelle does.
  const [i = '0', f = '0'] = words.split('.');
  const frac = Number(`0.${f}`);
  if (unit === 'Y') return ok(`P${Number(i)}Y${Math.round(frac * 12)}M`);
  if (unit === 'M') return ok(`P${Number(i)}M${Math.round(frac * 30)}D`);
  return ok(`P${Number(i)}D${Math.round(frac * 24)}H`);
}

/**
 * A numeric fact's displayed text under its format, as an unsigned decimal string before
 * scale and sign. No format means the text is already a decimal.
 */
export function transformNumber(format: string | undefined, text: string): FormatResult {
  const t = normalizeSpace(text);
  const name = format === undefined ? undefined : formatName(format);
  switch (name) {
    case undefined: {
      const plain = t.replace(/ /g, '');
      return /^(\d+\.?\d*|\.\d+)$/.test(plain) ? ok(canonicalDecimal(plain)) : bad('not a number');
    }
    case 'num-dot-decimal': {
      const plain = t.replace(/[ ,']/g, '');
      return /^(\d+\.?\d*|\.\d+)$/.test(plain) ? ok(canonicalDecimal(plain)) : bad('not a number');
    }
    case 'num-comma-decimal': {
      const plain = t.replace(/[ .']/g, '').replace(',', '.');
      return /^(\d+\.?\d*|\.\d+)$/.test(plain) ? ok(canonicalDecimal(plain)) : bad('not a number');
    }
    case 'fixed-zero':
      return ok('0');
    case 'numwordsen':
    case 'num-word-en':
      return numberWords(t);
    default:
      return bad(`unsupported numeric format ${format ?? ''}`);
  }
}

/** A non-numeric fact's value under its format; the text itself when it has none. */
export function transformText(format: string | undefined, text: string): FormatResult {
  const t = normalizeSpace(text);
  if (format === undefined) return ok(t);
  const name = formatName(format);
  let m: RegExpExecArray | null;
  switch (name) {
    case 'fixed-empty':
      return ok('');
    case 'fixed-false':
      return ok('false');
    case 'fixed-true':
      return ok('true');
    case 'fixed-zero':
      return ok('0');
    case 'num-dot-decimal':
    case 'num-comma-decimal':
    case 'numwordsen':
      return transformNumber(format, t);
    case 'boolballotbox':
      if (/^[☐□]$/.test(t)) return ok('false');
      if (/^[☒☑✓✔✗✘xX]$/.test(t)) return ok('true');
      return bad('not a ballot box');
    case 'date-monthname-day-year-en':
      m = /^([A-Za-z]+)\.? *(\d{1,2}),? *(\d{4}|\d{2})$/.exec(t);
      return m ? date(m[3], monthOf(m[1]!), m[2]) : bad('not a month-name day, year date');
    case 'date-day-monthname-year-en':
      m = /^(\d{1,2}) *([A-Za-z]+)\.?,? *(\d{4}|\d{2})$/.exec(t);
      return m ? date(m[3], monthOf(m[2]!), m[1]) : bad('not a day month-name year date');
    case 'date-monthname-day-en':
      m = /^([A-Za-z]+)\.? *(\d{1,2})$/.exec(t);
      return m ? date(undefined, monthOf(m[1]!), m[2]) : bad('not a month-name day');
    case 'date-monthname-year-en':
      m = /^([A-Za-z]+)\.?,? *(\d{4}|\d{2})$/.exec(t);
      return m ? date(m[2], monthOf(m[1]!), undefined) : bad('not a month-name year');
    case 'date-month-day-year':
      m = /^(\d{1,2})[/.\- ](\d{1,2})[/.\- ](\d{4}|\d{2})$/.exec(t);
      return m ? date(m[3], Number(m[1]), m[2]) : bad('not a month/day/year date');
    case 'date-day-month-year':
      m = /^(\d{1,2})[/.\- ](\d{1,2})[/.\- ](\d{4}|\d{2})$/.exec(t);
      return m ? date(m[3], Number(m[2]), m[1]) : bad('not a day/month/year date');
    case 'date-year-month-day':
      m = /^(\d{4}|\d{2})[/.\- ](\d{1,2})[/.\- ](\d{1,2})$/.exec(t);
      return m ? date(m[1], Number(m[2]), m[3]) : bad('not a year-month-day date');
    case 'date-month-day':
      m = /^(\d{1,2})[/.\- ](\d{1,2})$/.exec(t);
      return m ? date(undefined, Number(m[1]), m[2]) : bad('not a month/day');
    case 'duryear':
      return duration(t, 'Y');
    case 'durmonth':
      return duration(t, 'M');
    case 'durday':
      return duration(t, 'D');
    case 'durwordsen': {
      // "five years", "two years and six months", "thirty days"
      const words = t.toLowerCase().replace(/-/g, ' ');
      const parts = [...words.matchAll(/([a-z0-9 ]+?)\s+(year|month|week|day)s?\b/g)];
      if (parts.length === 0) return bad('not a duration in words');
      let out = 'P';
      for (const [, words, unit] of parts) {
        const n = numberWords((words ?? '').replace(/\band\b/g, '').trim());
        if (!n.ok) return n;
        out += `${n.value}${unit === 'year' ? 'Y' : unit === 'month' ? 'M' : unit === 'week' ? 'W' : 'D'}`;
      }
      return ok(out);
    }
    case 'stateprovnameen': {
      const v = STATES[t.toLowerCase().replace(/^state of /, '')];
      return v ? ok(v) : bad('not a US state or territory name');
    }
    case 'exchnameen': {
      const v = exchangeCode(t);
      return v ? ok(v) : bad('not a known exchange name');
    }
    case 'entityfilercategoryen': {
      const v = FILER_CATEGORIES[t.toLowerCase()];
      return v ? ok(v) : bad('not a filer category');
    }
    default:
      // Exchange and state names and other code lists: the text stands, marked as untransformed.
      return bad(`unsupported format ${format}`);
  }
}
