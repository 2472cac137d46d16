import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * The one shape every bank statement importer (OFX, CAMT.053, MT940, CSV) produces, and the
 * checks every imported statement passes before anything is accepted. Money is integer minor
 * units as a signed digit string (the gateway's convention: JSON has no bigint and floats are
 * refused), parsed straight from the file's decimal text, never through a float.
 */

// Intl knows the ISO 4217 list and each currency's minor-unit exponent (JPY 0, KWD 3).
const ISO_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
export const CurrencySchema = z
  .string()
  .refine((c) => /^[A-Z]{3}$/.test(c) && ISO_CURRENCIES.has(c), {
    message: 'an ISO 4217 currency code such as EUR or JPY',
  });

export function isCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && ISO_CURRENCIES.has(code);
}

const EXPONENTS = new Map<string, number>();
/** The number of decimal places of a currency's minor unit (EUR 2, JPY 0, KWD 3). */
export function minorUnitExponent(currency: string): number {
  let exp = EXPONENTS.get(currency);
  if (exp === undefined) {
    // Building a NumberFormat is slow; a statement asks for the same currency on every line.
    exp = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
      .maximumFractionDigits as number;
    EXPONENTS.set(currency, exp);
  }
  return exp;
}

export const SignedMinorUnitsSchema = z
  .string()
  .regex(/^(0|-?[1-9][0-9]{0,17})$/, 'a signed amount in integer minor units, e.g. "-3451"');

export const DateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD')
  .refine((d) => isValidIsoDate(d), 'a real calendar date');

export function isValidIsoDate(d: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(d);
  if (!m) return false;
  const [y, mo, da] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, da));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === da;
}

export const MoneySchema = z.object({
  amountMinor: SignedMinorUnitsSchema,
  currency: CurrencySchema,
});
export type Money = z.infer<typeof MoneySchema>;

export const BalanceSchema = MoneySchema.extend({
  date: DateSchema.nullable(),
  /** Line of the source file that states the balance; null when the file has no such line. */
  sourceLine: z.number().int().positive().nullable(),
});
export type Balance = z.infer<typeof BalanceSchema>;

export const StatementFormatSchema = z.enum(['ofx', 'camt053', 'mt940', 'csv']);
export type StatementFormat = z.infer<typeof StatementFormatSchema>;

export const StatementLineSchema = z.object({
  /** 1-based position of the line in its statement. */
  ordinal: z.number().int().positive(),
  /** Line of the source file where the transaction starts (1-based). */
  sourceLine: z.number().int().positive(),
  bookingDate: DateSchema,
  valueDate: DateSchema.nullable(),
  amountMinor: SignedMinorUnitsSchema,
  currency: CurrencySchema,
  counterpartyName: z.string().nullable(),
  counterpartyAccount: z.string().nullable(),
  description: z.string(),
  reference: z.string().nullable(),
  bankTransactionId: z.string().nullable(),
  /** Stable id for idempotent import: `bank:<id>` or `sha256:<hex>` of the canonical line. */
  externalId: z.string().min(1),
});
export type StatementLine = z.infer<typeof StatementLineSchema>;

export const StatementSchema = z
  .object({
    format: StatementFormatSchema,
    /** The statement's own id when the file gives one (CAMT Stmt/Id, MT940 :20:, OFX TRNUID). */
    statementId: z.string().nullable(),
    account: z
      .object({
        iban: z.string().nullable(),
        number: z.string().nullable(),
        bankId: z.string().nullable(),
        currency: CurrencySchema,
      })
      .refine((a) => a.iban !== null || a.number !== null, {
        message: 'an account needs an IBAN or an account number',
        path: ['number'],
      }),
    period: z.object({ from: DateSchema.nullable(), to: DateSchema.nullable() }),
    openingBalance: BalanceSchema.nullable(),
    closingBalance: BalanceSchema.nullable(),
    lines: z.array(StatementLineSchema),
  })
  .strict();
export type Statement = z.infer<typeof StatementSchema>;

/** Why a file was refused. The whole file is refused: nothing of it is imported. */
export const StatementImportErrorCodeSchema = z.enum([
  'UnsupportedFormat',
  'TooLarge',
  'Encoding',
  'Malformed',
  'MissingField',
  'InvalidDate',
  'InvalidAmount',
  'InvalidCurrency',
  'CurrencyMismatch',
  'BalanceMismatch',
  'BankError',
  'NoStatement',
]);
export type StatementImportErrorCode = z.infer<typeof StatementImportErrorCodeSchema>;

export const StatementImportErrorSchema = z.object({
  code: StatementImportErrorCodeSchema,
  file: z.string(),
  /** 1-based line of the file where the problem is; null when it concerns the whole file. */
  line: z.number().int().positive().nullable(),
  message: z.string(),
});
export type StatementImportError = z.infer<typeof StatementImportErrorSchema>;

export type StatementImportResult =
  | { ok: true; format: StatementFormat; statements: [Statement, ...Statement[]] }
  | { ok: false; error: StatementImportError };

/** Thrown inside parsers; importStatementFile turns it into `{ ok: false, error }`. */
export class StatementParseError extends Error {
  constructor(
    readonly code: StatementImportErrorCode,
    readonly line: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'StatementParseError';
  }
}

export function describeImportError(e: StatementImportError): string {
  return `${e.file}${e.line === null ? '' : `:${e.line}`}: ${e.code}: ${e.message}`;
}

/**
 * Parses a decimal string ("1.234,56" after the caller normalised separators to "1234.56",
 * "-0.5", "380115,") into minor units of the currency, exactly. More fractional digits than
 * the currency has are accepted only when they are zeros (CAMT's "18.150" EUR), never rounded.
 */
export function decimalToMinor(
  text: string,
  currency: string,
  opts: { decimalSeparator?: '.' | ','; line: number | null; what: string },
): string {
  const sep = opts.decimalSeparator ?? '.';
  const s = text.trim();
  const re = sep === '.' ? /^([+-])?(\d*)(?:\.(\d*))?$/ : /^([+-])?(\d*)(?:,(\d*))?$/;
  const m = re.exec(s);
  if (!m || ((m[2] ?? '') === '' && (m[3] ?? '') === '')) {
    throw new StatementParseError(
      'InvalidAmount',
      opts.line,
      `${opts.what} "${text.slice(0, 40)}" is not a decimal amount`,
    );
  }
  const exp = minorUnitExponent(currency);
  const intPart = m[2] || '0';
  let frac = m[3] ?? '';
  if (frac.length > exp) {
    if (/[^0]/.test(frac.slice(exp))) {
      throw new StatementParseError(
        'InvalidAmount',
        opts.line,
        `${opts.what} "${text.slice(0, 40)}" has more decimals than ${currency} allows (${exp})`,
      );
    }
    frac = frac.slice(0, exp);
  }
  frac = frac.padEnd(exp, '0');
  const digits = (intPart + frac).replace(/^0+(?=\d)/, '');
  if (digits.length > 18) {
    throw new StatementParseError('InvalidAmount', opts.line, `${opts.what} is too large`);
  }
  if (digits === '0') return '0';
  return m[1] === '-' ? `-${digits}` : digits;
}

export function negateMinor(minor: string): string {
  if (minor === '0') return minor;
  return minor.startsWith('-') ? minor.slice(1) : `-${minor}`;
}

export function requireCurrency(code: string, line: number | null, what: string): string {
  const c = code.trim().toUpperCase();
  if (!isCurrency(c)) {
    throw new StatementParseError(
      'InvalidCurrency',
      line,
      `${what} "${code.slice(0, 10)}" is not an ISO 4217 currency`,
    );
  }
  return c;
}

export function requireDate(
  y: number,
  m: number,
  d: number,
  line: number | null,
  what: string,
  raw: string,
): string {
  const iso = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  if (!isValidIsoDate(iso)) {
    throw new StatementParseError(
      'InvalidDate',
      line,
      `${what} "${raw.slice(0, 40)}" is not a date`,
    );
  }
  return iso;
}

/** A line as a parser produced it, before ordinals and external ids are assigned. */
export type DraftLine = Omit<StatementLine, 'ordinal' | 'externalId'>;
export type DraftStatement = Omit<Statement, 'lines'> & { lines: DraftLine[] };

/**
 * Assigns ordinals and stable external ids. The bank's own id is used when it is unique in
 * the statement; otherwise SHA-256 over the account, the line's canonical fields and the
 * line's ordinal among identical lines, so the same file imported twice yields the same ids
 * and two genuinely identical transactions stay two.
 */
export function finishStatement(draft: DraftStatement): Statement {
  const idCounts = new Map<string, number>();
  for (const l of draft.lines)
    if (l.bankTransactionId)
      idCounts.set(l.bankTransactionId, (idCounts.get(l.bankTransactionId) ?? 0) + 1);
  const seen = new Map<string, number>();
  const accountKey =
    draft.account.iban ?? `${draft.account.bankId ?? ''}/${draft.account.number ?? ''}`;
  const lines = draft.lines.map((l, i): StatementLine => {
    let externalId: string;
    if (l.bankTransactionId && idCounts.get(l.bankTransactionId) === 1) {
      externalId = `bank:${l.bankTransactionId}`;
    } else {
      const canonical = JSON.stringify([
        accountKey,
        l.bookingDate,
        l.valueDate,
        l.amountMinor,
        l.currency,
        l.counterpartyName,
        l.counterpartyAccount,
        l.description,
        l.reference,
        l.bankTransactionId,
      ]);
      const n = (seen.get(canonical) ?? 0) + 1;
      seen.set(canonical, n);
      externalId = `sha256:${createHash('sha256').update(`${canonical}#${n}`).digest('hex')}`;
    }
    return { ...l, ordinal: i + 1, externalId };
  });
  return { ...draft, lines };
}

/**
 * The consistency checks an imported statement must pass: every line in the account's
 * currency, balances in the account's currency, and opening + sum(lines) = closing when both
 * balances are given. Returns the first problem, or null.
 */
export function checkStatement(s: Statement): StatementParseError | null {
  const ccy = s.account.currency;
  for (const l of s.lines) {
    if (l.currency !== ccy)
      return new StatementParseError(
        'CurrencyMismatch',
        l.sourceLine,
        `line ${l.ordinal} is in ${l.currency}, the account in ${ccy}`,
      );
  }
  for (const [name, b] of [
    ['opening', s.openingBalance],
    ['closing', s.closingBalance],
  ] as const) {
    if (b && b.currency !== ccy)
      return new StatementParseError(
        'CurrencyMismatch',
        b.sourceLine,
        `the ${name} balance is in ${b.currency}, the account in ${ccy}`,
      );
  }
  if (s.openingBalance && s.closingBalance) {
    const sum = s.lines.reduce((acc, l) => acc + BigInt(l.amountMinor), 0n);
    const expected = BigInt(s.openingBalance.amountMinor) + sum;
    if (expected !== BigInt(s.closingBalance.amountMinor)) {
      return new StatementParseError(
        'BalanceMismatch',
        s.closingBalance.sourceLine,
        `opening ${s.openingBalance.amountMinor} + lines ${sum} = ${expected} minor units of ${ccy}, but the closing balance is ${s.closingBalance.amountMinor}` +
          (s.statementId ? ` (statement ${s.statementId})` : ''),
      );
    }
  }
  return null;
}

/** 1-based line number of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** A line-number lookup for many offsets in one text (binary search over newline offsets). */
export function lineIndex(text: string): (offset: number) => number {
  const starts: number[] = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}
