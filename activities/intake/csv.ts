import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import {
  CurrencySchema,
  StatementParseError,
  decimalToMinor,
  finishStatement,
  negateMinor,
  requireCurrency,
  requireDate,
  type DraftLine,
  type Statement,
} from './statement';
import { decodeText } from './text-decoding';

/**
 * Bank CSV exports, read through a per-bank column mapping: delimiter, encoding, date format,
 * decimal separator, and which header names hold the date, amount (or debit and credit),
 * payee, memo, reference and id. The header row is found by its column names, so preamble
 * rows above it (account details some banks print) are skipped, and a file whose header does
 * not match its mapping is refused rather than read by position.
 */

const ColumnName = z.string().min(1);

export const CsvMappingSchema = z
  .object({
    /** Stable id of the mapping, e.g. the bank's name in kebab case. */
    id: z.string().regex(/^[a-z0-9-]+$/),
    label: z.string().min(1),
    delimiter: z.enum([',', ';', '\t', '|']),
    encoding: z.string().default('utf-8'),
    /** Tokens YYYY, YY, MM, DD; other characters literal; a trailing `*` accepts any rest (a time). */
    dateFormat: z
      .string()
      .regex(/(YYYY|YY)/)
      .regex(/MM/)
      .regex(/DD/),
    decimalSeparator: z.enum(['.', ',']),
    thousandsSeparator: z.enum(['', '.', ',', ' ', "'"]).default(''),
    /**
     * Rows that are not booked transactions (e.g. a bank's pending "vorgemerkt" rows): their
     * money is not on the account yet, and they come back booked in a later export.
     */
    skipRows: z.object({ column: ColumnName, values: z.array(z.string()).min(1) }).optional(),
    /** The account's currency when no column names it. */
    currency: CurrencySchema.optional(),
    columns: z
      .object({
        date: ColumnName,
        valueDate: ColumnName.optional(),
        amount: ColumnName.optional(),
        debit: ColumnName.optional(),
        credit: ColumnName.optional(),
        currency: ColumnName.optional(),
        payee: ColumnName.optional(),
        counterpartyAccount: ColumnName.optional(),
        memo: z.array(ColumnName).default([]),
        reference: ColumnName.optional(),
        id: ColumnName.optional(),
        account: ColumnName.optional(),
      })
      .refine(
        (c) => (c.amount !== undefined) !== (c.debit !== undefined || c.credit !== undefined),
        {
          message: 'map either amount, or debit and credit',
          path: ['amount'],
        },
      )
      .refine((c) => c.amount !== undefined || (c.debit !== undefined && c.credit !== undefined), {
        message: 'debit and credit go together',
        path: ['debit'],
      }),
  })
  .refine((m) => m.currency !== undefined || m.columns.currency !== undefined, {
    message: 'a mapping needs a currency or a currency column',
    path: ['currency'],
  })
  .refine(
    (m) => m.thousandsSeparator !== m.decimalSeparator, // a comma delimiter with decimal commas is fine when amounts are quoted (bunq)
    {
      message: 'the decimal separator must differ from the thousands separator',
      path: ['decimalSeparator'],
    },
  );
export type CsvMapping = z.infer<typeof CsvMappingSchema>;
export type CsvMappingInput = z.input<typeof CsvMappingSchema>;

export const CsvImportOptionsSchema = z.object({
  /** The account the connector syncs, when the file has no account column. */
  account: z.object({ iban: z.string().nullable(), number: z.string().nullable() }).optional(),
});
export type CsvImportOptions = z.infer<typeof CsvImportOptionsSchema>;

const HEADER_SEARCH_ROWS = 30;

function mappedColumns(m: CsvMapping): string[] {
  const c = m.columns;
  return [
    c.date,
    c.valueDate,
    c.amount,
    c.debit,
    c.credit,
    c.currency,
    c.payee,
    c.counterpartyAccount,
    ...c.memo,
    m.skipRows?.column,
    c.reference,
    c.id,
    c.account,
  ].filter((x): x is string => x !== undefined);
}

function readRecords(
  bytes: Uint8Array,
  mapping: CsvMapping,
  toLine?: number,
): { record: string[]; line: number }[] {
  const text = decodeText(bytes, mapping.encoding).replace(/^\uFEFF/, '');
  try {
    const rows = parse(text, {
      delimiter: mapping.delimiter,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      bom: true,
      ...(toLine ? { to_line: toLine } : {}),
    }) as unknown as { record: string[]; info: { lines: number } }[];
    return rows.map((r) => ({ record: r.record, line: r.info.lines }));
  } catch (err) {
    const e = err as { code?: string; message?: string; lines?: number };
    throw new StatementParseError(
      'Malformed',
      typeof e.lines === 'number' ? e.lines : null,
      `CSV: ${e.message ?? String(err)}`,
    );
  }
}

function findHeader(records: { record: string[]; line: number }[], mapping: CsvMapping): number {
  const needed = mappedColumns(mapping);
  for (let i = 0; i < Math.min(records.length, HEADER_SEARCH_ROWS); i++) {
    const cells = new Set((records[i]?.record ?? []).map((c) => c.trim()));
    if (needed.every((n) => cells.has(n))) return i;
  }
  return -1;
}

/** The first mapping whose header row is in the file, or null. */
export function detectCsvMapping(
  bytes: Uint8Array,
  mappings: readonly CsvMapping[],
): CsvMapping | null {
  for (const m of mappings) {
    try {
      if (findHeader(readRecords(bytes, m, HEADER_SEARCH_ROWS), m) >= 0) return m;
    } catch {
      // not this mapping's delimiter or encoding
    }
  }
  return null;
}

function dateParser(format: string): (raw: string, line: number, what: string) => string {
  const wildcard = format.endsWith('*');
  const fmt = wildcard ? format.slice(0, -1) : format;
  const order: string[] = [];
  const source = fmt.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/YYYY|YY|MM|DD/g, (t) => {
    order.push(t);
    return t === 'YYYY' ? '(\\d{4})' : '(\\d{1,2})';
  });
  const re = new RegExp(`^${source}${wildcard ? '(?:\\s.*)?' : ''}$`);
  return (raw, line, what) => {
    const m = re.exec(raw.trim());
    if (!m)
      throw new StatementParseError(
        'InvalidDate',
        line,
        `${what} "${raw.slice(0, 40)}" does not match the date format ${format}`,
      );
    let y = 0;
    let mo = 0;
    let d = 0;
    order.forEach((t, i) => {
      const v = Number(m[i + 1]);
      if (t === 'YYYY') y = v;
      else if (t === 'YY') y = 2000 + v;
      else if (t === 'MM') mo = v;
      else d = v;
    });
    return requireDate(y, mo, d, line, what, raw);
  };
}

function amountOf(
  raw: string,
  m: CsvMapping,
  currency: string,
  line: number,
  what: string,
): string {
  let s = raw.trim().replace(/\s+(?=\d)/g, '');
  if (m.thousandsSeparator) {
    const t = m.thousandsSeparator.replace(/[.]/g, '\\.');
    const d = m.decimalSeparator === '.' ? '\\.' : ',';
    if (new RegExp(`^[+-]?\\d{1,3}(${t}\\d{3})+(${d}\\d*)?$`).test(s))
      s = s.split(m.thousandsSeparator).join('');
  }
  return decimalToMinor(s, currency, { decimalSeparator: m.decimalSeparator, line, what });
}

/** Reads a bank CSV export with its mapping into one statement (no balances: CSVs carry none). */
export function parseCsvStatement(
  bytes: Uint8Array,
  mappingInput: CsvMappingInput,
  options: CsvImportOptions = {},
): Statement {
  const mapping = CsvMappingSchema.parse(mappingInput);
  const records = readRecords(bytes, mapping);
  // Exports end every row with a line break; without one the last row may be cut mid-cell
  // (a cut right after a delimiter still parses as a shorter row), so the file is refused.
  const lastByte = bytes[bytes.length - 1];
  if (records.length > 0 && lastByte !== 0x0a && lastByte !== 0x0d)
    throw new StatementParseError(
      'Malformed',
      records[records.length - 1]?.line ?? null,
      'the last row is not terminated by a line break: the file looks cut short',
    );
  const h = findHeader(records, mapping);
  if (h < 0)
    throw new StatementParseError(
      'MissingField',
      records[0]?.line ?? null,
      `no header row with the columns of the ${mapping.label} mapping (${mappedColumns(mapping).join(', ')})`,
    );
  const header = (records[h]?.record ?? []).map((c) => c.trim());
  const col = (name: string | undefined) => (name === undefined ? -1 : header.indexOf(name));
  const c = mapping.columns;
  const idx = {
    date: col(c.date),
    valueDate: col(c.valueDate),
    amount: col(c.amount),
    debit: col(c.debit),
    credit: col(c.credit),
    currency: col(c.currency),
    payee: col(c.payee),
    cpAccount: col(c.counterpartyAccount),
    memo: c.memo.map((n) => col(n)),
    reference: col(c.reference),
    id: col(c.id),
    account: col(c.account),
  };
  const parseDate = dateParser(mapping.dateFormat);
  const accounts = new Set<string>();
  const lines: DraftLine[] = [];
  for (const { record, line } of records.slice(h + 1)) {
    if (record.every((x) => x.trim() === '')) continue;
    if (record.length !== header.length)
      throw new StatementParseError(
        'Malformed',
        line,
        `the row has ${record.length} columns, the header ${header.length}`,
      );
    const cell = (i: number) => (i < 0 ? '' : (record[i] ?? '').trim());
    if (
      mapping.skipRows &&
      mapping.skipRows.values.includes(cell(header.indexOf(mapping.skipRows.column)))
    )
      continue;
    const currency =
      idx.currency >= 0
        ? requireCurrency(cell(idx.currency), line, c.currency ?? 'currency')
        : (mapping.currency as string);
    let amountMinor: string;
    if (idx.amount >= 0) {
      if (cell(idx.amount) === '')
        throw new StatementParseError('MissingField', line, `the row has no ${c.amount}`);
      amountMinor = amountOf(cell(idx.amount), mapping, currency, line, c.amount ?? 'amount');
    } else {
      const debit = cell(idx.debit);
      const credit = cell(idx.credit);
      if ((debit === '') === (credit === ''))
        throw new StatementParseError(
          'InvalidAmount',
          line,
          `the row needs exactly one of ${c.debit} and ${c.credit}`,
        );
      amountMinor =
        debit !== ''
          ? negateMinor(
              amountOf(debit, mapping, currency, line, c.debit ?? 'debit').replace(/^-/, ''),
            )
          : amountOf(credit, mapping, currency, line, c.credit ?? 'credit').replace(/^-/, '');
    }
    if (idx.account >= 0 && cell(idx.account)) accounts.add(cell(idx.account));
    const payee = cell(idx.payee) || null;
    const memo = idx.memo
      .map(cell)
      .filter((x) => x !== '')
      .join(' ');
    lines.push({
      sourceLine: line,
      bookingDate: parseDate(cell(idx.date), line, c.date),
      valueDate:
        idx.valueDate >= 0 && cell(idx.valueDate)
          ? parseDate(cell(idx.valueDate), line, c.valueDate ?? '')
          : null,
      amountMinor,
      currency,
      counterpartyName: payee,
      counterpartyAccount: cell(idx.cpAccount) || null,
      description: memo || payee || '',
      reference: cell(idx.reference) || null,
      bankTransactionId: cell(idx.id) || null,
    });
  }
  if (accounts.size > 1)
    throw new StatementParseError(
      'Malformed',
      null,
      `the file mixes accounts (${[...accounts].slice(0, 3).join(', ')}): one statement is one account`,
    );
  const fromColumn = [...accounts][0];
  const account = fromColumn
    ? /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(fromColumn)
      ? { iban: fromColumn, number: null }
      : { iban: null, number: fromColumn }
    : options.account;
  if (!account || (account.iban === null && account.number === null))
    throw new StatementParseError(
      'MissingField',
      null,
      `the ${mapping.label} export names no account: pass the synced account`,
    );
  const currencies = new Set(lines.map((l) => l.currency));
  const accountCurrency =
    mapping.currency ?? (currencies.size === 1 ? [...currencies][0] : undefined);
  if (!accountCurrency)
    throw new StatementParseError(
      'CurrencyMismatch',
      null,
      `the file's lines are in ${currencies.size === 0 ? 'no' : 'several'} currencies and the mapping names none`,
    );
  const dates = lines.map((l) => l.bookingDate).sort();
  return finishStatement({
    format: 'csv',
    statementId: null,
    account: { ...account, bankId: null, currency: accountCurrency },
    period: { from: dates[0] ?? null, to: dates[dates.length - 1] ?? null },
    openingBalance: null,
    closingBalance: null,
    lines,
  });
}
