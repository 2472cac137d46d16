import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { CsvMappingSchema, type CsvMapping } from '../activities/intake/csv';
import { CSV_MAPPINGS } from '../activities/intake/csv-mappings';
import {
  MAX_STATEMENT_BYTES,
  importStatementFile,
  parseStatementFile,
  type ImportStatementInput,
} from '../activities/intake/import-statement';
import { parseMt940Balance, readMt940Fields } from '../activities/intake/mt940';
import {
  StatementImportErrorSchema,
  StatementParseError,
  StatementSchema,
  checkStatement,
  decimalToMinor,
  type Statement,
  type StatementImportResult,
} from '../activities/intake/statement';
import { sharedDataset } from './support/shared-dataset';

const OWN = join(__dirname, 'fixtures', 'statements');
const { path: SHARED, present: HAVE_SHARED } = sharedDataset('statement-formats');
const SYNCED_ACCOUNT = { iban: null, number: 'connector-account-1' };

function own(rel: string): ImportStatementInput {
  return {
    file: rel,
    bytes: readFileSync(join(OWN, rel)),
    csvOptions: { account: SYNCED_ACCOUNT },
  };
}
function ok(r: StatementImportResult): Statement[] {
  if (!r.ok) throw new Error(`expected an import, got ${JSON.stringify(r.error)}`);
  return r.statements;
}
function failed(r: StatementImportResult) {
  if (r.ok) throw new Error('expected a refusal, got an import');
  return r.error;
}
const amounts = (s: Statement) => s.lines.map((l) => [l.bookingDate, l.amountMinor, l.currency]);

describe('statement importers on the project fixtures', () => {
  it('reads an SGML OFX 1.02 file in its declared code page, with closing balance and FITIDs', () => {
    const [s, ...rest] = ok(importStatementFile(own('ofx/sgml-checking.ofx')));
    expect(rest).toHaveLength(0);
    expect(s?.account).toEqual({
      iban: null,
      number: '000111222',
      bankId: '021000021',
      currency: 'USD',
    });
    expect(s?.period).toEqual({ from: '2024-01-01', to: '2024-01-31' });
    expect(s?.closingBalance).toEqual({
      amountMinor: '126494',
      currency: 'USD',
      date: '2024-01-31',
      sourceLine: 19,
    });
    expect(s && amounts(s)).toEqual([
      ['2024-01-03', '-123456', 'USD'],
      ['2024-01-15', '250000', 'USD'],
      ['2024-01-31', '-50', 'USD'],
    ]);
    expect(s?.lines[0]?.counterpartyName).toBe('Café Renée & Co');
    expect(s?.lines[1]?.valueDate).toBe('2024-01-16');
    expect(s?.lines.map((l) => l.externalId)).toEqual([
      'bank:T-0001',
      'bank:T-0002',
      'bank:T-0003',
    ]);
    expect(s?.lines.map((l) => l.sourceLine)).toEqual([16, 17, 18]);
  });

  it('reads an XML OFX 2.2 credit-card statement; identical lines without FITID get distinct stable ids', () => {
    const first = ok(importStatementFile(own('ofx/xml-creditcard.ofx')));
    const again = ok(importStatementFile(own('ofx/xml-creditcard.ofx')));
    const s = first[0] as Statement;
    expect(s.account.number).toBe('4000123412341234');
    expect(amounts(s)).toEqual([
      ['2024-02-29', '-4210', 'GBP'],
      ['2024-02-10', '-999', 'GBP'],
      ['2024-02-10', '-999', 'GBP'],
    ]);
    expect(s.lines[0]?.counterpartyName).toBe('Büro & Bedarf <GmbH>');
    const ids = s.lines.map((l) => l.externalId);
    expect(ids[0]).toBe('bank:cc-1');
    expect(ids[1]).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(new Set(ids).size).toBe(3);
    expect(again[0]?.lines.map((l) => l.externalId)).toEqual(ids);
  });

  it('reads camt.053.001.08 in JPY (exponent 0) with Othr account, DtTm booking date and balances', () => {
    const [s] = ok(importStatementFile(own('camt/jpy-statement.xml')));
    expect(s?.account).toEqual({ iban: null, number: '1234567', bankId: null, currency: 'JPY' });
    expect(s?.openingBalance?.amountMinor).toBe('100000');
    expect(s?.closingBalance?.amountMinor).toBe('85500');
    expect(s && amounts(s)).toEqual([
      ['2024-02-05', '-15000', 'JPY'],
      ['2024-02-20', '500', 'JPY'],
    ]);
    expect(s?.lines[0]).toMatchObject({
      counterpartyName: 'Tokyo Office Supply KK',
      counterpartyAccount: '7654321',
      reference: 'INV-2024-17',
      description: 'Invoice INV-2024-17',
      externalId: 'bank:JP-REF-1',
    });
  });

  it('refuses a camt.053 whose balances do not add up, naming the closing balance line', () => {
    const e = failed(importStatementFile(own('camt/unbalanced.wrong.xml')));
    expect(e).toEqual({
      code: 'BalanceMismatch',
      file: 'camt/unbalanced.wrong.xml',
      line: 10,
      message:
        'opening 100000 + lines -14500 = 85500 minor units of JPY, but the closing balance is 85000 (statement JP-STMT-202402)',
    });
  });

  it('reads two enveloped MT940 messages, structured :86: fields and a reversal of a credit (RC) as money out', () => {
    const [a, b] = ok(importStatementFile(own('mt940/two-statements.sta')));
    expect(a?.account.iban).toBe('DE89370400440532013000');
    expect([a?.openingBalance?.amountMinor, a?.closingBalance?.amountMinor]).toEqual([
      '100000',
      '195050',
    ]);
    expect(a && amounts(a)).toEqual([
      ['2024-03-01', '-25000', 'EUR'],
      ['2024-03-01', '120050', 'EUR'],
    ]);
    expect(a?.lines[0]).toMatchObject({
      counterpartyName: 'Muster Lieferant GmbH',
      counterpartyAccount: 'DE02120300000000202051',
      reference: 'INV-77',
      bankTransactionId: 'B-0001',
    });
    expect(a?.lines[1]?.description).toBe('Refund of deposit Rent refund');
    expect(b && amounts(b)).toEqual([['2024-03-02', '-5000', 'EUR']]);
  });

  it('reads the Monzo, bunq and Sparkasse CSV exports through their mappings (Sparkasse pending rows skipped)', () => {
    const [monzo] = ok(importStatementFile(own('csv/monzo.csv')));
    expect(monzo?.account).toEqual({ ...SYNCED_ACCOUNT, bankId: null, currency: 'GBP' });
    expect(monzo && amounts(monzo)).toEqual([
      ['2024-04-02', '-320', 'GBP'],
      ['2024-04-03', '150000', 'GBP'],
    ]);
    expect(monzo?.lines[0]?.externalId).toBe('bank:tx_fixture_0001');
    const [bunq] = ok(importStatementFile(own('csv/bunq.csv')));
    expect(bunq?.account.iban).toBe('NL91ABNA0417164300');
    expect(bunq && amounts(bunq)).toEqual([
      ['2024-05-01', '-123450', 'EUR'],
      ['2024-05-02', '1200', 'EUR'],
    ]);
    expect(bunq?.lines[1]?.description).toBe('Dinner, split');
    const [spk] = ok(importStatementFile(own('csv/sparkasse.csv')));
    expect(spk?.account.number).toBe('0532013000');
    expect(spk?.lines.map((l) => [l.bookingDate, l.valueDate, l.amountMinor])).toEqual([
      ['2024-06-05', '2024-06-06', '-108990'],
      ['2024-06-07', '2024-06-07', '4510'],
    ]);
    expect(spk?.lines[1]?.counterpartyName).toBe('Größe & Söhne');
  });

  it('refuses a CSV export without an account when the connector names none', () => {
    const e = failed(
      importStatementFile({ file: 'monzo.csv', bytes: readFileSync(join(OWN, 'csv/monzo.csv')) }),
    );
    expect(e.code).toBe('MissingField');
    expect(e.message).toContain('names no account');
  });

  it('refuses a CSV read in the wrong encoding with the line of the first bad byte', () => {
    const sparkasse = CSV_MAPPINGS.find((m) => m.id === 'sparkasse-csv-camt') as CsvMapping;
    const e = failed(
      importStatementFile({
        ...own('csv/sparkasse.csv'),
        csvMapping: { ...sparkasse, encoding: 'utf-8' },
      }),
    );
    expect(e).toMatchObject({ code: 'Encoding', file: 'csv/sparkasse.csv', line: 2 });
  });

  it('validates a CSV mapping with zod, naming the field', () => {
    const r = CsvMappingSchema.safeParse({
      id: 'x',
      label: 'X',
      delimiter: ';',
      dateFormat: 'DD.MM.YYYY',
      decimalSeparator: ',',
      currency: 'EUR',
      columns: { date: 'Datum', amount: 'Betrag', debit: 'Soll', credit: 'Haben' },
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join('.'))).toContain('columns.amount');
  });

  it('reads debit and credit columns with thousands separators', () => {
    const mapping = CsvMappingSchema.parse({
      id: 'debit-credit',
      label: 'Debit/credit bank',
      delimiter: ',',
      dateFormat: 'DD/MM/YYYY',
      decimalSeparator: '.',
      thousandsSeparator: ',',
      currency: 'GBP',
      columns: { date: 'Date', debit: 'Paid out', credit: 'Paid in', payee: 'Details', memo: [] },
    });
    const csv =
      'Account: 12-34-56 87654321\nDate,Details,Paid out,Paid in\n02/01/2024,Rent,"1,250.00",\n03/01/2024,Refund,,19.5\n';
    const [s] = ok(
      importStatementFile({
        file: 'dc.csv',
        bytes: Buffer.from(csv),
        csvMapping: mapping,
        csvOptions: { account: SYNCED_ACCOUNT },
      }),
    );
    expect(
      s?.lines.map((l) => [l.bookingDate, l.amountMinor, l.counterpartyName, l.sourceLine]),
    ).toEqual([
      ['2024-01-02', '-125000', 'Rent', 3],
      ['2024-01-03', '1950', 'Refund', 4],
    ]);
  });
});

describe('decimal amounts to minor units', () => {
  const at = { line: 1, what: 'amount' };
  it.each([
    ['1234.56', 'EUR', '123456'],
    ['-0.5', 'EUR', '-50'],
    ['.50', 'USD', '50'],
    ['18.150', 'EUR', '1815'],
    ['2700', 'JPY', '2700'],
    ['2700.000', 'JPY', '2700'],
    ['1.234', 'KWD', '1234'],
    ['-0.00', 'EUR', '0'],
    ['0099.10', 'EUR', '9910'],
  ])('%s %s is %s minor units', (text, ccy, minor) => {
    expect(decimalToMinor(text, ccy, at)).toBe(minor);
  });
  it.each([
    ['18.155', 'EUR', 'has more decimals than EUR allows (2)'],
    ['12.5', 'JPY', 'has more decimals than JPY allows (0)'],
    ['$120', 'USD', 'is not a decimal amount'],
    ['1e3', 'USD', 'is not a decimal amount'],
    ['', 'USD', 'is not a decimal amount'],
  ])('refuses %s %s: %s', (text, ccy, why) => {
    let thrown: unknown;
    try {
      decimalToMinor(text, ccy, at);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(StatementParseError);
    expect((thrown as StatementParseError).code).toBe('InvalidAmount');
    expect((thrown as StatementParseError).message).toContain(why);
  });
  it('round-trips any integer amount of cents exactly, never through a float', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 17n), max: 10n ** 17n }), (cents) => {
        const abs = cents < 0n ? -cents : cents;
        const text = `${cents < 0n ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
        expect(decimalToMinor(text, 'EUR', at)).toBe(String(cents));
      }),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Every file of ../shared/datasets/statement-formats, compared with its expected output.

function walk(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? walk(p) : [p];
    });
}
const isStatementFile = (p: string) =>
  !/\.(yml|json)$/.test(p) && !basename(p).startsWith('LICENSE');
const mustFail = (rel: string) => rel.includes('fail_nice/') || /\.wrong\./.test(rel);

interface Outcome {
  file: string;
  format: string;
  result: 'imported' | 'failed-cleanly' | 'wrong';
  detail: string;
  compared: number;
}

/** Every camt Entry and Statement object in a genkgo/camt JSON dump. */
function camtExpected(json: unknown) {
  const entries: Record<string, unknown>[] = [];
  const records = new Map<string, Record<string, unknown>>();
  const visit = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const cls = String(o.__CLASS__ ?? '');
      if (cls.endsWith('\\DTO\\Entry')) entries.push(o);
      if (cls.endsWith('Camt053\\DTO\\Statement')) records.set(String(o.getId), o);
      Object.values(o).forEach(visit);
    }
  };
  visit(json);
  return { entries, records };
}
type Money = { getAmount: string; getCurrency: { getCode: string } };
const date10 = (d: unknown) =>
  d ? String((d as Record<string, unknown>)['0']).slice(0, 10) : null;

/** Compares the parse of a camt file with genkgo's dump, field by field; returns the count. */
function compareCamt(statements: Statement[], json: unknown): number {
  const { entries, records } = camtExpected(json);
  let n = 0;
  for (const [id, rec] of records) {
    const s = statements.find((x) => x.statementId === id);
    expect(s).toBeDefined();
    const acct = rec.getAccount as Record<string, unknown>;
    expect(s?.account.iban ?? s?.account.number).toBe(acct.getIdentification);
    for (const b of rec.getBalances as { getType: string; getAmount: Money; getDate: unknown }[]) {
      const ours =
        b.getType === 'opening'
          ? s?.openingBalance
          : b.getType === 'closing'
            ? s?.closingBalance
            : undefined;
      if (ours === undefined) continue; // available balances are not part of a Statement
      expect([ours?.amountMinor, ours?.currency, ours?.date]).toEqual([
        b.getAmount.getAmount,
        b.getAmount.getCurrency.getCode,
        date10(b.getDate),
      ]);
      n += 3;
    }
  }
  for (const e of entries) {
    const rec = e.getRecord as Record<string, unknown>;
    const s = statements.find((x) => x.statementId === rec.getId);
    const line = s?.lines[Number(e.getIndex)];
    const money = e.getAmount as Money;
    expect([line?.amountMinor, line?.currency, line?.bookingDate, line?.valueDate]).toEqual([
      money.getAmount,
      money.getCurrency.getCode,
      date10(e.getBookingDate),
      date10(e.getValueDate),
    ]);
    expect(line?.amountMinor.startsWith('-')).toBe(e.getCreditDebitIndicator === 'DBIT');
    if (e.getAccountServicerReference)
      expect(line?.bankTransactionId).toBe(e.getAccountServicerReference);
    n += 5;
  }
  return n;
}

// The betterplace mt940 fixtures are pickled python objects; these tags only need their data.
function mt940Expected(yml: string): {
  data: Record<string, unknown>;
  transactions: { data: Record<string, unknown> }[];
} {
  return parseYaml(yml, { maxAliasCount: -1, logLevel: 'silent' }) as never;
}
const pyDate = (d: unknown): string | null => {
  const b = (d as Uint8Array[] | undefined)?.[0];
  if (!b || b.length < 4) return null;
  const y = ((b[0] ?? 0) << 8) | (b[1] ?? 0);
  return `${y}-${String(b[2]).padStart(2, '0')}-${String(b[3]).padStart(2, '0')}`;
};
const pyAmount = (a: unknown) => {
  const amt = a as { amount: string[]; currency: string };
  return { value: amt.amount[0] ?? '', currency: amt.currency };
};
function pyBalance(b: unknown) {
  const bal = b as { amount: unknown; date: unknown; status: string };
  const { value, currency } = pyAmount(bal.amount);
  return {
    amountMinor: decimalToMinor(value, currency, { line: null, what: 'expected' }),
    currency,
    date: pyDate(bal.date),
  };
}

/** Compares MT940 statements (or, for fragments, the fields) with the python mt940 dump. */
function compareMt940(bytes: Buffer, statements: Statement[] | null, yml: string): number {
  const expected = mt940Expected(yml);
  let n = 0;
  if (statements) {
    const lines = statements.flatMap((s) => s.lines);
    expect(lines).toHaveLength(expected.transactions.length);
    expected.transactions.forEach((t, i) => {
      const d = t.data;
      const { value, currency } = pyAmount(d.amount);
      const magnitude = decimalToMinor(value.replace(/^-/, ''), currency, {
        line: null,
        what: 'expected',
      });
      // SWIFT: D and RC take money out (python-mt940 leaves RC positive; the balances prove RC is out).
      const out = d.status === 'D' || d.status === 'RC';
      const line = lines[i];
      expect([line?.amountMinor, line?.currency, line?.valueDate, line?.bookingDate]).toEqual([
        out ? `-${magnitude}` : magnitude,
        currency,
        pyDate(d.date),
        pyDate(d.entry_date ?? d.date),
      ]);
      // YAML reads an all-digit reference as a number, dropping its leading zeros.
      if (typeof d.bank_reference === 'number')
        expect(line?.bankTransactionId?.replace(/^0+/, '')).toBe(String(d.bank_reference));
      else if (d.bank_reference) expect(line?.bankTransactionId).toBe(d.bank_reference);
      n += 4;
    });
    const last = statements[statements.length - 1];
    if (expected.data.final_opening_balance) {
      expect({ ...last?.openingBalance, sourceLine: undefined }).toEqual({
        ...pyBalance(expected.data.final_opening_balance),
        sourceLine: undefined,
      });
      n++;
    }
    if (expected.data.final_closing_balance) {
      expect({ ...last?.closingBalance, sourceLine: undefined }).toEqual({
        ...pyBalance(expected.data.final_closing_balance),
        sourceLine: undefined,
      });
      n++;
    }
    return n;
  }
  // A fragment that is no complete statement: compare the fields it does hold.
  const fields = readMt940Fields(bytes.toString('utf8'));
  const lastOf = (tags: string[]) => [...fields].reverse().find((f) => tags.includes(f.tag));
  if (expected.data.final_opening_balance) {
    const { sourceLine: _s, ...ours } = parseMt940Balance(lastOf(['60F'])!);
    expect(ours).toEqual(pyBalance(expected.data.final_opening_balance));
    n++;
  }
  if (expected.data.final_closing_balance) {
    const { sourceLine: _s, ...ours } = parseMt940Balance(lastOf(['62F'])!);
    expect(ours).toEqual(pyBalance(expected.data.final_closing_balance));
    n++;
  }
  if (expected.data.account_identification) {
    expect(lastOf(['25'])?.value).toBe(expected.data.account_identification);
    n++;
  }
  expect(expected.transactions ?? []).toHaveLength(0);
  return n;
}

const describeShared = HAVE_SHARED ? describe : describe.skip;
if (!existsSync(SHARED)) {
  console.warn(
    `intake.statements: ${SHARED} is absent; the shared statement-format fixtures are skipped`,
  );
}

describeShared(
  'every shared statement-format fixture (../shared/datasets/statement-formats)',
  () => {
    const files = existsSync(SHARED) ? walk(SHARED).filter(isStatementFile) : [];
    const outcomes: Outcome[] = [];

    afterAll(() => {
      const byFormat = new Map<string, Record<string, number>>();
      for (const o of outcomes) {
        const f = byFormat.get(o.format) ?? {
          imported: 0,
          'failed-cleanly': 0,
          wrong: 0,
          compared: 0,
        };
        f[o.result] = (f[o.result] ?? 0) + 1;
        f.compared = (f.compared ?? 0) + o.compared;
        byFormat.set(o.format, f);
      }
      console.log(
        `statement-format fixtures:\n${[...byFormat].map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`).join('\n')}\n${outcomes
          .map((o) => `  ${o.result.padEnd(14)} ${o.file}  ${o.detail}`)
          .join('\n')}`,
      );
    });

    it('finds the fixture folders', () => {
      expect(files.length).toBeGreaterThanOrEqual(25);
    });

    it.each(files.map((f) => [relative(SHARED, f)]))(
      '%s imports matching its expected output, or fails cleanly naming file and line',
      (rel) => {
        const path = join(SHARED, rel);
        const bytes = readFileSync(path);
        const format = rel.split('/')[0] ?? '?';
        const result = importStatementFile({
          file: rel,
          bytes,
          csvOptions: { account: SYNCED_ACCOUNT },
        });
        const outcome: Outcome = { file: rel, format, result: 'wrong', detail: '', compared: 0 };
        outcomes.push(outcome);
        if (result.ok) {
          outcome.detail = result.statements.map((s) => `${s.lines.length} lines`).join(', ');
          expect(mustFail(rel)).toBe(false);
          for (const s of result.statements) {
            expect(StatementSchema.parse(s)).toEqual(s);
            expect(checkStatement(s)).toBeNull();
          }
        } else {
          outcome.detail = `${result.error.code} line ${result.error.line ?? '-'}: ${result.error.message}`;
          expect(StatementImportErrorSchema.parse(result.error)).toEqual(result.error);
          expect(result.error.file).toBe(rel);
          expect(result.error.message).not.toMatch(/unexpected parser failure/);
          expect(result.error.message.length).toBeGreaterThan(10);
        }
        // Field-by-field comparison with the expected output, from the parse (before the balance
        // checks) so a file we refuse for inconsistent balances still proves its amounts and dates.
        const base = path.replace(/\.[^.]+$/, '');
        let statements: Statement[] | null = null;
        try {
          statements = parseStatementFile({
            file: rel,
            bytes,
            csvOptions: { account: SYNCED_ACCOUNT },
          }).statements;
        } catch (e) {
          if (!(e instanceof StatementParseError)) throw e;
        }
        if (existsSync(`${base}.json`)) {
          expect(statements).not.toBeNull();
          outcome.compared = compareCamt(
            statements ?? [],
            JSON.parse(readFileSync(`${base}.json`, 'utf8')),
          );
        } else if (existsSync(`${base}.yml`)) {
          outcome.compared = compareMt940(bytes, statements, readFileSync(`${base}.yml`, 'utf8'));
        }
        outcome.result = result.ok ? 'imported' : 'failed-cleanly';
      },
    );
  },
);

// ---------------------------------------------------------------------------------------------
// Fuzz: truncated files, wrong encodings, random bytes and huge inputs.

const OWN_FILES = walk(OWN).map((p) => relative(OWN, p));
function expectClean(r: StatementImportResult, file: string) {
  if (r.ok) {
    for (const s of r.statements) expect(checkStatement(StatementSchema.parse(s))).toBeNull();
  } else {
    expect(StatementImportErrorSchema.parse(r.error).file).toBe(file);
    expect(r.error.message).not.toMatch(/unexpected parser failure/);
  }
}

describe('statement importers under fuzzing', () => {
  it.each(OWN_FILES.filter((f) => !f.includes('.wrong.')).map((f) => [f]))(
    '%s cut anywhere is refused, or (CSV, MT940 at a message end) is a clean prefix of the whole file',
    (rel) => {
      const full = importStatementFile(own(rel));
      const whole = ok(full);
      const bytes = readFileSync(join(OWN, rel));
      const lastContent = bytes.toString('latin1').trimEnd().length;
      // Every cut position, not a sample: the files are small and a rare bad cut is the point.
      let refused = 0;
      for (let cut = 0; cut < lastContent; cut++) {
        const r = importStatementFile({ ...own(rel), bytes: bytes.subarray(0, cut) });
        expectClean(r, rel);
        if (!r.ok) {
          refused++;
          continue;
        }
        // OFX and camt.053 are closed documents: any cut before their end must be refused.
        expect(rel.startsWith('ofx/') || rel.startsWith('camt/')).toBe(false);
        // What a cut CSV or MT940 still imports is whole rows or messages of the file, never a mangled line.
        const cutLines = r.statements.flatMap((s) => s.lines);
        const wholeLines = whole.flatMap((s) => s.lines);
        expect(cutLines).toEqual(wholeLines.slice(0, cutLines.length));
      }
      expect(refused).toBeGreaterThan(lastContent * 0.9);
      console.log(
        `intake fuzz: ${rel}: ${lastContent} cuts, ${refused} refused, ${lastContent - refused} imported whole rows/messages only`,
      );
    },
  );

  it('never throws on random bytes, and refuses them', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 4096 }), (bytes) => {
        const r = importStatementFile({ file: 'random.bin', bytes });
        expect(r.ok).toBe(false);
        expectClean(r, 'random.bin');
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a camt.053 whose XML prolog holds a NUL byte (found by the fuzz below) as malformed', () => {
    const bytes = Buffer.from(readFileSync(join(OWN, 'camt/jpy-statement.xml')));
    bytes[14] = 0;
    expect(failed(importStatementFile({ file: 'nul.xml', bytes }))).toEqual({
      code: 'Malformed',
      file: 'nul.xml',
      line: null,
      message: 'not well-formed XML: Pi Tag is not closed.',
    });
  });

  it('never throws when bytes of a real file are overwritten at random', () => {
    const files = OWN_FILES.map((f) => own(f));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: files.length - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 8,
        }),
        (i, edits) => {
          const input = files[i] as ImportStatementInput;
          const bytes = Buffer.from(input.bytes);
          for (const [pos, b] of edits) bytes[pos % bytes.length] = b;
          expectClean(importStatementFile({ ...input, bytes }), input.file);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('refuses a 20 MB input at once, by size', () => {
    const huge = Buffer.alloc(20 * 1024 * 1024, 'A');
    const t = Date.now();
    const e = failed(importStatementFile({ file: 'huge.ofx', bytes: huge }));
    // Reading 20 MB would take seconds; refusing by size takes ~1 ms (the bound allows a loaded CI).
    expect(Date.now() - t).toBeLessThan(500);
    expect(e).toEqual({
      code: 'TooLarge',
      file: 'huge.ofx',
      line: null,
      message: `the file is ${huge.length} bytes, the limit is ${MAX_STATEMENT_BYTES}`,
    });
  });

  it('imports a near-limit OFX of 40,000 lines in bounded time, and refuses it cut short just as fast', () => {
    const trn = (i: number) =>
      `<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240105<TRNAMT>-1.${String(i % 100).padStart(2, '0')}<FITID>F${i}<NAME>Payee ${i % 97}<MEMO>Line ${i}</STMTTRN>\n`;
    const body = Array.from({ length: 40000 }, (_, i) => trn(i)).join('');
    const total = Array.from({ length: 40000 }, (_, i) => 100 + (i % 100)).reduce(
      (a, b) => a + b,
      0,
    );
    const ofx = `OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nENCODING:USASCII\nCHARSET:1252\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>EUR<BANKACCTFROM><BANKID>1<ACCTID>2</BANKACCTFROM><BANKTRANLIST><DTSTART>20240101<DTEND>20240131\n${body}</BANKTRANLIST><LEDGERBAL><BALAMT>-${Math.floor(total / 100)}.${String(total % 100).padStart(2, '0')}<DTASOF>20240131</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n`;
    const bytes = Buffer.from(ofx);
    expect(bytes.length).toBeGreaterThan(4_000_000);
    let t = Date.now();
    const [s] = ok(importStatementFile({ file: 'big.ofx', bytes }));
    const importMs = Date.now() - t;
    expect(s?.lines).toHaveLength(40000);
    expect(s?.closingBalance?.amountMinor).toBe(`-${total}`);
    t = Date.now();
    const e = failed(
      importStatementFile({ file: 'big.ofx', bytes: bytes.subarray(0, bytes.length - 300) }),
    );
    expect(e.code).toBe('Malformed');
    expect(Date.now() - t).toBeLessThan(60000);
    // Generous: the shared 2-core machine runs a dozen test suites at once (about 1 s when idle).
    expect(importMs).toBeLessThan(60000);
    console.log(
      `intake fuzz: ${bytes.length} byte OFX with 40000 lines imported in ${importMs} ms`,
    );
  });
});
