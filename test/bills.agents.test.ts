import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { useSeededWorker } from './support/seeded-worker';
import { FIXTURES } from './support/fixtures';
import { ingestFile } from '../client/documents';
import { GatewayClient, WriteRefusedError } from '../client/gateway-client';
import {
  bankAccounts,
  bills,
  gatewaySubmissions,
  journalLines,
  vendorCredits,
  vendors,
} from '../db/schema';
import { ciiInvoice, pdfInvoice } from '../scripts/lib/einvoice-builder';
import { loadDataset, summarize } from '../scripts/eval/invoices-scoring';
import { driveEvent, processBillFile, seedBillOrg, OPERATOR } from '../scripts/eval/invoices';
import type { BillOutcome } from '../agents/bill_processor/outcome';

/**
 * The bill processor and master data agents end to end on the dev server with PostgreSQL, in
 * code mode, through the gateway — the invoices eval's CI short mode on three of the synthetic
 * bills: a bill from an unknown vendor resumes after master data created the vendor (with its
 * placeholder email flagged); a bill that fails a check goes to a person and writes nothing;
 * the same invoice again is refused, by the agent and by the gateway whatever its spacing.
 */
const env = useSeededWorker();
const ORG_ID = 'bills-e2e';
const DIR = join(FIXTURES, 'bills');

it('posts, delegates, refuses duplicates and sends what fails a check to a person', async () => {
  const deps = env.deps();
  await seedBillOrg(deps.db, ORG_ID);
  const files = loadDataset(DIR).filter((f) =>
    ['de-rechnung.txt', 'ca-hosting.pdf', 'trap-rate.txt'].includes(f.file),
  );
  const items = [];
  for (const f of files) items.push(await processBillFile(deps, ORG_ID, f));
  const s = summarize(items);
  expect(s).toMatchObject({ files: 3, posted: 2, wrongPosted: 0 });
  expect(s.expectedOutcomeMatches).toEqual({ checked: 3, matched: 3 });

  // The unknown vendor went to master data, was created with a flagged placeholder email, and
  // the bill resumed and was applied.
  const de = items.find((i) => i.file === 'de-rechnung.txt')!;
  expect(de.trace).toEqual(
    expect.arrayContaining([
      'bill_processor: vendor_unknown',
      expect.stringMatching(
        /^delegation hr_.* answered by agent:master_data: vendor ven-holzwerk-berger$/,
      ),
      'bill_processor: posted',
      'bill.post applied',
    ]),
  );
  const [vendor] = await deps.db
    .select()
    .from(vendors)
    .where(and(eq(vendors.orgId, ORG_ID), eq(vendors.name, 'Holzwerk Berger GmbH')));
  expect(vendor).toMatchObject({ taxId: 'DE812345678' });
  // The printed address is the vendor's own domain: kept, no placeholder.
  expect(vendor!.email).toBe('buchhaltung@holzwerk-berger.de');
  expect(vendor!.placeholderFields).toEqual([]);
  const [canadian] = await deps.db
    .select()
    .from(vendors)
    .where(and(eq(vendors.orgId, ORG_ID), eq(vendors.name, 'Maple Cloud Hosting Inc.')));
  expect(canadian!.email).toMatch(/\.invalid$/);
  expect(canadian!.placeholderFields).toEqual(['email']);
  const [bill] = await deps.db
    .select()
    .from(bills)
    .where(and(eq(bills.orgId, ORG_ID), eq(bills.billNumber, 'RE-2024-0815')));
  expect(bill).toMatchObject({ currency: 'EUR', totalMinor: 146913n, billDate: '2024-03-12' });

  // The trap wrote nothing: no vendor request, no submission.
  const trap = items.find((i) => i.file === 'trap-rate.txt')!;
  expect(trap).toMatchObject({ outcome: 'human_review' });
  expect(trap.trace).toEqual(['bill_processor: human_review']);

  // The same bill again: the agent refuses it from the vendor's open bills ...
  const { document } = await ingestFile(deps, {
    orgId: ORG_ID,
    path: join(DIR, 'de-rechnung.txt'),
  });
  const trace: string[] = [];
  const again = await driveEvent(
    deps,
    {
      orgId: ORG_ID,
      type: 'bill.received',
      payload: { documentId: document.id, vendorId: vendor!.id },
    },
    trace,
  );
  const bill2 = (again!.output as { data: { bills: BillOutcome[] } }).data.bills[0]!;
  expect(bill2.outcome).toBe('duplicate');
  expect(again!.submissions).toEqual([]);
  // ... and the gateway refuses it too, however the number is spaced or cased.
  const gw = new GatewayClient(deps.client, deps.db, deps.taskQueue);
  await expect(
    gw
      .submit({
        orgId: ORG_ID,
        idempotencyKey: 'dup-by-hand',
        submitter: { kind: 'user', userId: `${ORG_ID}-${OPERATOR}` },
        kind: 'bill.post',
        payload: {
          vendorId: vendor!.id,
          billNumber: '# re-2024-0815',
          billDate: '2024-03-12',
          currency: 'EUR',
          lines: [{ description: 'again', amountMinor: '146913' }],
        },
      })
      .then(() => gw.result(ORG_ID, 'dup-by-hand')),
  ).rejects.toThrow(WriteRefusedError);
  await expect(gw.result(ORG_ID, 'dup-by-hand')).rejects.toThrow(/already posted/);
});

it('posts a structured e-invoice from its VAT breakdown, and the same invoice as a PDF/A-3 is a duplicate', async () => {
  const deps = env.deps();
  const org = 'bills-einvoice';
  await seedBillOrg(deps.db, org);
  const spec = {
    number: 'RE-2026-0042',
    seller: 'Lieferant Nord GmbH',
    lines: [
      { name: 'Beratung März', net: '1200.00', rate: '19' },
      { name: 'Fachbuch', net: '45.90', rate: '7' },
    ],
  };
  const dir = mkdtempSync(join(tmpdir(), 'cs-einvoice-'));
  try {
    writeFileSync(join(dir, 'rechnung.xml'), ciiInvoice(spec));
    writeFileSync(
      join(dir, 'rechnung.pdf'),
      await pdfInvoice(
        ['Lieferant Nord GmbH', 'Rechnung Nr. RE-2026-0042', 'Gesamtbetrag 1.477,11 EUR'],
        [{ name: 'factur-x.xml', xml: ciiInvoice(spec) }],
      ),
    );
    const expected = {
      issuer: 'Lieferant Nord GmbH',
      invoice_number: 'RE-2026-0042',
      amount: '1477.11',
      amount_tax: '231.21',
    };
    const xml = await processBillFile(deps, org, {
      file: 'rechnung.xml',
      path: join(dir, 'rechnung.xml'),
      expected,
    });
    expect(xml).toMatchObject({
      outcome: 'posted',
      source: 'xml',
      wrongPosted: false,
      structured: { validation: { status: 'valid' }, crossCheck: { status: 'not_applicable' } },
    });
    expect(xml.correct).toEqual({
      issuer: true,
      invoice_number: true,
      amount: true,
      amount_tax: true,
    });

    // One entry: net per rate to expense, input VAT per rate, AP for the gross.
    const [bill] = await deps.db
      .select()
      .from(bills)
      .where(and(eq(bills.orgId, org), eq(bills.billNumber, 'RE-2026-0042')));
    expect(bill).toMatchObject({ currency: 'EUR', totalMinor: 147711n, billDate: '2026-03-02' });
    const lines = await deps.db
      .select()
      .from(journalLines)
      .where(and(eq(journalLines.orgId, org), eq(journalLines.entryId, bill!.entryId)));
    const debits = lines.filter((l) => l.debit > 0n).map((l) => [l.memo, l.debit]);
    expect(debits).toEqual([
      ['RE-2026-0042 net S 19%: Beratung März', 120000n],
      ['RE-2026-0042 net S 7%: Fachbuch', 4590n],
      ['Input tax S 19%', 22800n],
      ['Input tax S 7%', 321n],
    ]);
    expect(lines.reduce((a, l) => a + l.debit, 0n)).toBe(147711n);
    expect(lines.filter((l) => l.credit > 0n).map((l) => l.credit)).toEqual([147711n]);

    // The same invoice arriving as a PDF/A-3: read from its XML, refused as a duplicate.
    const pdf = await processBillFile(deps, org, {
      file: 'rechnung.pdf',
      path: join(dir, 'rechnung.pdf'),
      expected,
    });
    expect(pdf).toMatchObject({
      outcome: 'human_review',
      source: 'xml',
      structured: { crossCheck: { status: 'agrees' } },
    });
    expect(pdf.trace).toContain('bill_processor: duplicate');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('posts a structured credit note as a vendor credit applied to the bill it corrects, once', async () => {
  const deps = env.deps();
  const org = 'bills-credit';
  await seedBillOrg(deps.db, org);
  const dir = mkdtempSync(join(tmpdir(), 'cs-credit-'));
  try {
    // The bill first: 1 477,11 EUR, net per rate to expense, AP for the gross.
    writeFileSync(
      join(dir, 'rechnung.xml'),
      ciiInvoice({
        number: 'RE-2026-0042',
        seller: 'Lieferant Nord GmbH',
        lines: [
          { name: 'Beratung März', net: '1200.00', rate: '19' },
          { name: 'Fachbuch', net: '45.90', rate: '7' },
        ],
      }),
    );
    const invoice = await processBillFile(deps, org, {
      file: 'rechnung.xml',
      path: join(dir, 'rechnung.xml'),
      expected: { invoice_number: 'RE-2026-0042', amount: '1477.11' },
    });
    expect(invoice).toMatchObject({ outcome: 'posted', wrongPosted: false });
    const [bill] = await deps.db
      .select()
      .from(bills)
      .where(and(eq(bills.orgId, org), eq(bills.billNumber, 'RE-2026-0042')));

    // The credit note (381) for 200,00 + 19% of the consulting, naming the invoice (BT-25).
    const credit = {
      number: 'GS-2026-0007',
      typeCode: '381',
      seller: 'Lieferant Nord GmbH',
      precedingInvoice: 'RE-2026-0042',
      lines: [{ name: 'Gutschrift Beratung', net: '200.00', rate: '19' }],
    };
    writeFileSync(join(dir, 'gutschrift.xml'), ciiInvoice(credit));
    const expected = { invoice_number: 'GS-2026-0007', amount: '238.00', amount_tax: '38.00' };
    const posted = await processBillFile(deps, org, {
      file: 'gutschrift.xml',
      path: join(dir, 'gutschrift.xml'),
      expected,
    });
    expect(posted).toMatchObject({ outcome: 'posted', source: 'xml', wrongPosted: false });
    expect(posted.trace).toContain('bill.credit applied');

    const credits = () => deps.db.select().from(vendorCredits).where(eq(vendorCredits.orgId, org));
    const [vc] = await credits();
    expect(vc).toMatchObject({
      vendorId: bill!.vendorId,
      creditNumber: 'GS-2026-0007',
      creditDate: '2026-03-02',
      currency: 'EUR',
      totalMinor: 23800n,
      precedingBillNumber: 'RE-2026-0042',
      appliedBillId: bill!.id,
      appliedMinor: 23800n,
    });
    // The reverse of the bill's entry: Dr AP, Cr the expense account the bill debited and the
    // input tax.
    const entryLines = async (entryId: string) =>
      deps.db
        .select()
        .from(journalLines)
        .where(and(eq(journalLines.orgId, org), eq(journalLines.entryId, entryId)));
    const billLines = await entryLines(bill!.entryId);
    const creditLines = await entryLines(vc!.entryId);
    const ap = billLines.find((l) => l.credit > 0n)!.accountId;
    const expense = billLines.find((l) => l.memo?.startsWith('RE-2026-0042 net S 19%'))!.accountId;
    const inputTax = billLines.find((l) => l.memo === 'Input tax S 19%')!.accountId;
    expect(creditLines.map((l) => [l.accountId, l.debit, l.credit])).toEqual([
      [ap, 23800n, 0n],
      [expense, 0n, 20000n],
      [inputTax, 0n, 3800n],
    ]);
    // What the vendor is owed: the bill less the credit.
    const apBalance = (await deps.db.select().from(journalLines).where(eq(journalLines.orgId, org)))
      .filter((l) => l.accountId === ap)
      .reduce((a, l) => a + l.credit - l.debit, 0n);
    expect(apBalance).toBe(147711n - 23800n);

    // The same credit note again as a PDF/A-3 (another channel): refused as a duplicate.
    writeFileSync(
      join(dir, 'gutschrift.pdf'),
      await pdfInvoice(
        ['Lieferant Nord GmbH', 'Gutschrift Nr. GS-2026-0007', 'Gutschriftsbetrag 238,00 EUR'],
        [{ name: 'factur-x.xml', xml: ciiInvoice(credit) }],
      ),
    );
    const again = await processBillFile(deps, org, {
      file: 'gutschrift.pdf',
      path: join(dir, 'gutschrift.pdf'),
      expected,
    });
    expect(again).toMatchObject({
      outcome: 'human_review',
      source: 'xml',
      structured: { crossCheck: { status: 'agrees' } },
    });
    expect(again.trace).toContain('bill_processor: duplicate');
    expect(await credits()).toHaveLength(1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('a vendor created from a structured invoice keeps its IBAN and BIC; a later invoice paying elsewhere fires the payee-change rule', async () => {
  const deps = env.deps();
  const org = 'bills-payee';
  await seedBillOrg(deps.db, org);
  const seller = 'Konto Lieferant GmbH';
  const dir = mkdtempSync(join(tmpdir(), 'cs-payee-'));
  const submissionsOf = (kind: string) =>
    deps.db
      .select()
      .from(gatewaySubmissions)
      .where(and(eq(gatewaySubmissions.orgId, org), eq(gatewaySubmissions.kind, kind)));
  const rules = (s: { rulesFired: unknown }) =>
    (s.rulesFired as { rule: string }[]).map((r) => r.rule);
  try {
    const invoice = (number: string, iban: string) => {
      const file = `${number}.xml`;
      writeFileSync(
        join(dir, file),
        ciiInvoice({
          number,
          seller,
          iban,
          bic: 'COBADEFFXXX',
          lines: [{ name: 'Wartung', net: '100.00', rate: '19' }],
        }),
      );
      return processBillFile(deps, org, {
        file,
        path: join(dir, file),
        expected: { invoice_number: number, amount: '119.00' },
      });
    };
    expect(await invoice('KL-1', 'DE02120300000000202051')).toMatchObject({ outcome: 'posted' });
    const [vendor] = await deps.db
      .select()
      .from(vendors)
      .where(and(eq(vendors.orgId, org), eq(vendors.name, seller)));
    const accounts = await deps.db
      .select()
      .from(bankAccounts)
      .where(and(eq(bankAccounts.orgId, org), eq(bankAccounts.vendorId, vendor!.id)));
    expect(accounts).toEqual([
      expect.objectContaining({
        holderName: seller,
        iban: 'DE02120300000000202051',
        bic: 'COBADEFFXXX',
        currency: 'EUR',
        retiredAt: null,
      }),
    ]);
    // New bank details are a high-risk write of their own.
    const [created] = await submissionsOf('vendor.create');
    expect(created).toMatchObject({ lane: 'high' });
    expect(rules(created!)).toContain('payee_bank_details_new');
    // The first bill pays the stored account: no payee rule.
    const [first] = await submissionsOf('bill.post');
    expect(rules(first!)).not.toContain('payee_bank_details_changed');

    // The next invoice asks to be paid elsewhere: the payee-change rule, high lane.
    await invoice('KL-2', 'DE89370400440532013000');
    const second = (await submissionsOf('bill.post')).find(
      (s) => (s.payload as { billNumber: string }).billNumber === 'KL-2',
    );
    expect(second).toMatchObject({ lane: 'high' });
    expect(rules(second!)).toContain('payee_bank_details_changed');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
