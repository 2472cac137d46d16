// The statement importers on the project's own files (OFX, camt.053, MT940, CSV), and decimal
// amounts to minor units. The shared format fixtures are in intake.statement-formats.test.ts,
// the fuzzing in intake.statement-fuzz.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { CsvMappingSchema, type CsvMapping } from '../activities/intake/csv';
import { CSV_MAPPINGS } from '../activities/intake/csv-mappings';
import { importStatementFile } from '../activities/intake/import-statement';
import {
  StatementParseError,
  decimalToMinor,
  type Statement,
} from '../activities/intake/statement';
import { OWN, SYNCED_ACCOUNT, failed, ok, own } from './intake.fixtures';

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
