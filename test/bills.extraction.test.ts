import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseNumber } from '../activities/bills/amounts';
import { datesIn, resolveDate } from '../activities/bills/dates';
import { extractBill } from '../activities/bills/extract-bill';
import { labelsIn } from '../activities/bills/labels';
import { extractPdfText } from '../activities/documents/pdf-text';
import { VendorCreateSchema } from '../workflows/gateway/writes';
import {
  FIELDS,
  loadDataset,
  scoreItem,
  summarize,
  type Field,
} from '../scripts/eval/invoices-scoring';
import { FIXTURES } from './support/fixtures';

/**
 * The bill extraction on the project's own synthetic bills (test/fixtures/bills: eight
 * languages and layouts, two generated PDFs, five traps) — the invoices eval's CI short mode
 * at the extraction level, scored by the eval's own scorer — and the readers it rests on.
 */
const DIR = join(FIXTURES, 'bills');

async function pagesOf(path: string): Promise<string[]> {
  if (!path.endsWith('.pdf')) return [readFileSync(path, 'utf8')];
  return (await extractPdfText(new Uint8Array(readFileSync(path)))).pages.map((p) => p.text);
}

describe('the synthetic bills', () => {
  it('post every clean bill with every field right, send every trap to a person, post nothing wrong', async () => {
    const files = loadDataset(DIR);
    expect(files.length).toBeGreaterThanOrEqual(15);
    const items = [];
    for (const f of files) {
      const ex = extractBill(await pagesOf(f.path));
      const extracted: Record<Field, string | null> = {
        issuer: ex.issuer,
        invoice_number: ex.invoiceNumber,
        date: ex.issueDate,
        currency: ex.currency,
        amount: ex.amount,
        amount_untaxed: ex.amountUntaxed,
        amount_tax: ex.amountTax,
      };
      items.push(
        scoreItem(
          f,
          ex.outcome === 'ready' ? 'posted' : 'human_review',
          extracted,
          ex.reasons,
          [],
          0,
        ),
      );
    }
    for (const i of items) {
      expect({ file: i.file, outcome: i.outcome }).toEqual({
        file: i.file,
        outcome: i.expectedOutcome,
      });
      if (i.outcome === 'posted')
        for (const f of FIELDS)
          expect({ file: i.file, field: f, ok: i.correct[f] }).toEqual({
            file: i.file,
            field: f,
            ok: true,
          });
    }
    const s = summarize(items);
    expect(s.wrongPosted).toBe(0);
    expect(s.straightThroughRate).toBeCloseTo(10 / 15, 3);
    expect(s.expectedOutcomeMatches).toEqual({ checked: files.length, matched: files.length });
    expect(s.fieldAccuracy.amount).toBe(1);
  });

  it('names the failed check of each trap', async () => {
    const reasonsOf = async (f: string) =>
      extractBill(await pagesOf(join(DIR, f))).reasons.join(' | ');
    expect(await reasonsOf('trap-arithmetic.txt')).toMatch(/^net_plus_tax_equals_gross/);
    expect(await reasonsOf('trap-rate.txt')).toMatch(
      /tax_matches_rate: 20% of 100.00 = 20.00, printed 25.00/,
    );
    expect(await reasonsOf('trap-two-numbers.txt')).toMatch(
      /several candidates: HFL-7710, HFL-7719/,
    );
    expect(await reasonsOf('trap-ambiguous-date.txt')).toMatch(
      /issue_date_parsed: undecided: 03\/04\/2024/,
    );
    expect(await reasonsOf('trap-no-total.txt')).toMatch(/gross_labelled: no total/);
  });
});

describe('the readers', () => {
  it('reads the common number formats into hundredths, refusing what is not money', () => {
    const cents = (s: string) => parseNumber(s)?.cents ?? null;
    expect(cents('1.234,56')).toBe(123456n);
    expect(cents('1,234.56')).toBe(123456n);
    expect(cents('1 234,56')).toBe(123456n);
    expect(cents("1'234.56")).toBe(123456n);
    expect(cents('1.234')).toBe(123400n); // a lone group of three is thousands
    expect(cents('12,5')).toBe(1250n);
    expect(cents('(45.00)')).toBe(-4500n);
    expect(cents('1.2.3')).toBeNull();
    expect(cents('12.345,6789')).toBeNull();
  });

  it('resolves a day/month order only from evidence', () => {
    const [amb] = datesIn('Date: 03/04/2024');
    expect(amb!.iso).toBeNull();
    expect(resolveDate(amb!, [], null)).toBeNull();
    expect(resolveDate(amb!, [], 'mdy')).toBe('2024-03-04');
    expect(resolveDate(amb!, [{ sep: '/', order: 'dmy' }], 'mdy')).toBe('2024-04-03');
    expect(
      resolveDate(
        amb!,
        [
          { sep: '/', order: 'dmy' },
          { sep: '/', order: 'mdy' },
        ],
        null,
      ),
    ).toBeNull();
    expect(datesIn('Rechnungsdatum 7. Mai 2014')[0]!.iso).toBe('2014-05-07');
    expect(datesIn('Data wystawienia: 2021-01-01')[0]!.iso).toBe('2021-01-01');
  });

  it('tells a net total, a tax total and the gross apart on one line', () => {
    const kinds = (l: string) => labelsIn(l).map((h) => h.kind);
    expect(kinds('Total excl. VAT   £400.00   Total   £480.00')).toEqual(['net', 'gross']);
    expect(kinds('Total HT : 46,68 €   Total TTC : 56,02 €')).toEqual(['net', 'gross']);
    expect(kinds('Totaal BTW € 21,00')).toEqual(['tax']);
    expect(kinds('Order No: 10441')).toEqual(['other_ref']);
    expect(kinds('Invoice No: 10442')).toEqual(['number']);
  });
});

describe('placeholder flags on master data', () => {
  it('accept a flagged reserved-domain email and refuse a flag on a real address', () => {
    expect(
      VendorCreateSchema.safeParse({
        name: 'Acme',
        email: 'unknown-contact@acme.placeholder.invalid',
        placeholderFields: ['email'],
      }).success,
    ).toBe(true);
    const real = VendorCreateSchema.safeParse({
      name: 'Acme',
      email: 'ap@acme.com',
      placeholderFields: ['email'],
    });
    expect(real.success).toBe(false);
    expect(real.error!.issues[0]!.message).toMatch(/not on a reserved domain/);
    expect(
      VendorCreateSchema.safeParse({ name: 'Acme', placeholderFields: ['phone'] }).success,
    ).toBe(false);
  });
});
