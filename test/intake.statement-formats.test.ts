// Every file of ../shared/datasets/statement-formats, compared with its expected output (skipped
// when the shared dataset is absent). The project's own files are in
// intake.statement-importers.test.ts, the fuzzing in intake.statement-fuzz.test.ts.
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { importStatementFile, parseStatementFile } from '../activities/intake/import-statement';
import { parseMt940Balance, readMt940Fields } from '../activities/intake/mt940';
import {
  StatementImportErrorSchema,
  StatementParseError,
  StatementSchema,
  checkStatement,
  decimalToMinor,
  type Statement,
} from '../activities/intake/statement';
import { sharedDataset } from './support/shared-dataset';
import { SYNCED_ACCOUNT, walk } from './intake.fixtures';

const { path: SHARED, present: HAVE_SHARED } = sharedDataset('statement-formats');

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
    `intake.statement-formats: ${SHARED} is absent; the shared statement-format fixtures are skipped`,
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
