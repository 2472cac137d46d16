import { looksLikeCamt053, parseCamt053 } from './camt053';
import { detectCsvMapping, parseCsvStatement, type CsvImportOptions, type CsvMapping } from './csv';
import { CSV_MAPPINGS } from './csv-mappings';
import { looksLikeMt940, parseMt940 } from './mt940';
import { looksLikeOfx, parseOfx } from './ofx';
import {
  StatementParseError,
  StatementSchema,
  checkStatement,
  type Statement,
  type StatementFormat,
  type StatementImportResult,
} from './statement';

/** Files above this are refused before parsing (a month of a busy account is far below it). */
export const MAX_STATEMENT_BYTES = 10 * 1024 * 1024;

export interface ImportStatementInput {
  /** The file's name, used in every error message. */
  file: string;
  bytes: Uint8Array;
  /** Skip detection when the connector knows the format. */
  format?: StatementFormat;
  /** The CSV mapping; detected from the header among the known banks when absent. */
  csvMapping?: CsvMapping;
  csvOptions?: CsvImportOptions;
  maxBytes?: number;
}

/** Which format a file is, from its first bytes; null when none fits (CSV needs a mapping). */
export function detectStatementFormat(bytes: Uint8Array): Exclude<StatementFormat, 'csv'> | null {
  const head = Buffer.from(bytes.subarray(0, 4096)).toString('latin1');
  if (looksLikeOfx(head)) return 'ofx';
  if (looksLikeCamt053(head)) return 'camt053';
  if (looksLikeMt940(head)) return 'mt940';
  return null;
}

/**
 * Parses a file into its statements without the consistency checks, for inspection; throws
 * StatementParseError. importStatementFile is the import path.
 */
export function parseStatementFile(input: ImportStatementInput): {
  format: StatementFormat;
  statements: Statement[];
} {
  const max = input.maxBytes ?? MAX_STATEMENT_BYTES;
  if (input.bytes.byteLength > max)
    throw new StatementParseError(
      'TooLarge',
      null,
      `the file is ${input.bytes.byteLength} bytes, the limit is ${max}`,
    );
  if (input.bytes.byteLength === 0)
    throw new StatementParseError('NoStatement', null, 'the file is empty');
  const format =
    input.format ??
    detectStatementFormat(input.bytes) ??
    (input.csvMapping || detectCsvMapping(input.bytes, CSV_MAPPINGS) ? 'csv' : null);
  switch (format) {
    case 'ofx':
      return { format, statements: parseOfx(input.bytes) };
    case 'camt053':
      return { format, statements: parseCamt053(input.bytes) };
    case 'mt940':
      return { format, statements: parseMt940(input.bytes) };
    case 'csv': {
      const mapping = input.csvMapping ?? detectCsvMapping(input.bytes, CSV_MAPPINGS);
      if (!mapping)
        throw new StatementParseError(
          'UnsupportedFormat',
          1,
          `no CSV mapping matches the header (known: ${CSV_MAPPINGS.map((m) => m.label).join(', ')})`,
        );
      return { format, statements: [parseCsvStatement(input.bytes, mapping, input.csvOptions)] };
    }
    default:
      throw new StatementParseError(
        'UnsupportedFormat',
        1,
        'not OFX, camt.053, MT940 or a CSV export of a known bank',
      );
  }
}

/**
 * Imports a bank statement file: every statement in it parsed, schema-checked and balanced,
 * or a typed error naming the file and line — never a part of the file.
 */
export function importStatementFile(input: ImportStatementInput): StatementImportResult {
  try {
    const { format, statements } = parseStatementFile(input);
    for (const s of statements) {
      const problem = checkStatement(s);
      if (problem) throw problem;
      const valid = StatementSchema.safeParse(s);
      if (!valid.success) {
        const issue = valid.error.issues[0];
        throw new StatementParseError(
          'Malformed',
          null,
          `statement ${s.statementId ?? ''} fails the Statement schema at ${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}`,
        );
      }
    }
    const [first, ...rest] = statements;
    if (!first) throw new StatementParseError('NoStatement', null, 'the file holds no statement');
    return { ok: true, format, statements: [first, ...rest] };
  } catch (err) {
    if (err instanceof StatementParseError)
      return {
        ok: false,
        error: { code: err.code, file: input.file, line: err.line, message: err.message },
      };
    // A parser bug must not pass as a clean refusal: say so, still importing nothing.
    return {
      ok: false,
      error: {
        code: 'Malformed',
        file: input.file,
        line: null,
        message: `unexpected parser failure: ${err instanceof Error ? err.message : String(err)}`,
      },
    };
  }
}
