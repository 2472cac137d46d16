import {
  applyAnswers,
  billNumberPattern,
  decideLine,
  namesBill,
  reconcile,
  type BillCandidate,
  type EntryCandidate,
  type MatchLine,
} from '../agents/reconciliation/match';

/**
 * The reconciliation agent's matching rules, pure: what matches automatically, what is asked,
 * what is handed on — including rewordings of a bill number that must still be found and
 * near misses that must not match on their own.
 */
const line = (over: Partial<MatchLine> = {}): MatchLine => ({
  id: 'l1',
  bookedOn: '2025-03-20',
  amountMinor: '-12100',
  currency: 'EUR',
  description: 'SEPA transfer',
  reference: null,
  counterpartyName: null,
  counterpartyAccount: null,
  ...over,
});
const bill = (over: Partial<BillCandidate> = {}): BillCandidate => ({
  id: 'bill-a',
  billNumber: 'INV-00042',
  billDate: '2025-03-01',
  dueDate: '2025-03-31',
  currency: 'EUR',
  totalMinor: '12100',
  vendorId: 'v1',
  vendorName: 'Acme Supplies GmbH',
  vendorAccounts: ['DE89370400440532013000'],
  ...over,
});
const entry = (over: Partial<EntryCandidate> = {}): EntryCandidate => ({
  entryId: 'je-1',
  entryDate: '2025-03-18',
  netMinor: '-12100',
  memo: 'Payment to Acme',
  ...over,
});

describe('bill numbers in free text', () => {
  it.each([
    ['INV-00042', 'Invoice INV-00042'],
    ['INV-00042', 'inv 00042 thanks'],
    ['INV-00042', 'INV42'],
    ['INV-00042', 'payment inv-0042/march'],
    ['INV-00042', 'I N V 0 0 0 4 2'],
    ['RE-2024-0815', 'Rechnung re 2024 815'],
    ['2024/17', 'ref 2024-17'],
  ])('finds %s in %j', (number, text) => {
    expect(namesBill({ reference: null, description: text }, number)).toBe(true);
    expect(namesBill({ reference: text, description: '' }, number)).toBe(true);
  });

  it.each([
    ['INV-00042', 'INV-000421'], // a longer number
    ['INV-00042', 'INV-4200'],
    ['INV-00042', 'XINV42'], // inside a word
    ['1234', 'amount 12345'],
    ['1250', 'paid 12.50 EUR'],
    ['A1', 'A1 anything'], // too short to be evidence
  ])('does not find %s in %j', (number, text) => {
    expect(namesBill({ reference: null, description: text }, number)).toBe(false);
  });

  it('is null for numbers too short to be evidence', () => {
    expect(billNumberPattern('7')).toBeNull();
    expect(billNumberPattern('#12')).toBeNull();
    expect(billNumberPattern('123')).not.toBeNull();
  });
});

describe('one line', () => {
  it('rule a: exactly one posted entry of the amount within the window matches', () => {
    expect(decideLine(line(), [entry()], [bill()])).toEqual({
      kind: 'match_entry',
      lineId: 'l1',
      entryId: 'je-1',
    });
  });

  it('rule a: an entry outside the window or of another amount is no candidate', () => {
    const d = decideLine(
      line({ reference: 'INV-00042' }),
      [entry({ entryDate: '2025-03-01' }), entry({ entryId: 'je-2', netMinor: '-12000' })],
      [bill()],
    );
    expect(d).toMatchObject({ kind: 'settle_bill', billId: 'bill-a' });
  });

  it('rule a: two entries of the amount are asked', () => {
    const d = decideLine(line(), [entry(), entry({ entryId: 'je-2' })], []);
    expect(d).toMatchObject({ kind: 'ask' });
    if (d.kind === 'ask') expect(d.candidates.map((c) => c.id)).toEqual(['je-1', 'je-2']);
  });

  it('rule a matches money in too; inflows never reach bills', () => {
    expect(
      decideLine(line({ amountMinor: '5000' }), [entry({ netMinor: '5000' })], []),
    ).toMatchObject({ kind: 'match_entry' });
    expect(
      decideLine(line({ amountMinor: '12100', reference: 'INV-00042' }), [], [bill()]),
    ).toEqual({ kind: 'none', lineId: 'l1' });
  });

  it('rule b: reference with spaces, lower case and leading zeros settles', () => {
    for (const reference of ['inv 42', 'INV-0000042', 'Inv- 00042'])
      expect(decideLine(line({ reference }), [], [bill()])).toMatchObject({
        kind: 'settle_bill',
        billId: 'bill-a',
        evidence: ['amount', 'reference'],
      });
  });

  it('rule b: the counterparty (account or name) is evidence too', () => {
    expect(
      decideLine(line({ counterpartyAccount: 'de89 3704 0044 0532 0130 00' }), [], [bill()]),
    ).toMatchObject({ kind: 'settle_bill', evidence: ['amount', 'counterparty_account'] });
    expect(decideLine(line({ counterpartyName: 'ACME SUPPLIES' }), [], [bill()])).toMatchObject({
      kind: 'settle_bill',
      evidence: ['amount', 'counterparty_name'],
    });
  });

  it('near misses are not automatic', () => {
    // Amount only: asked.
    expect(decideLine(line(), [], [bill()])).toMatchObject({
      kind: 'ask',
      reason: expect.stringMatching(/only the amount/),
    });
    // Another currency, or outside the window: nothing.
    expect(decideLine(line({ reference: 'INV-00042' }), [], [bill({ currency: 'USD' })])).toEqual({
      kind: 'none',
      lineId: 'l1',
    });
    expect(
      decideLine(line({ reference: 'INV-00042', bookedOn: '2025-06-30' }), [], [bill()]),
    ).toEqual({ kind: 'none', lineId: 'l1' });
    expect(
      decideLine(line({ reference: 'INV-00042', bookedOn: '2025-02-01' }), [], [bill()]),
    ).toEqual({ kind: 'none', lineId: 'l1' });
    // A longer number in the reference is no evidence: amount only, asked.
    expect(decideLine(line({ reference: 'INV-000421' }), [], [bill()])).toMatchObject({
      kind: 'ask',
    });
    // A similar but different vendor name is no evidence.
    expect(
      decideLine(line({ counterpartyName: 'Acme Supplies North' }), [], [bill()]),
    ).toMatchObject({ kind: 'ask' });
  });

  it('partial and over-payments of a named bill are asked, never settled', () => {
    for (const amountMinor of ['-6050', '-12200']) {
      const d = decideLine(line({ amountMinor, reference: 'INV-00042' }), [], [bill()]);
      expect(d).toMatchObject({ kind: 'ask', reason: expect.stringMatching(/another amount/) });
    }
    // A smaller payment to the vendor without naming the bill: asked too.
    expect(
      decideLine(line({ amountMinor: '-5000', counterpartyName: 'Acme Supplies' }), [], [bill()]),
    ).toMatchObject({ kind: 'ask' });
    // A larger one to the vendor that names no bill: not about this bill.
    expect(
      decideLine(line({ amountMinor: '-50000', counterpartyName: 'Acme Supplies' }), [], [bill()]),
    ).toEqual({ kind: 'none', lineId: 'l1' });
  });

  it('two open bills of the amount with evidence for both are asked', () => {
    const d = decideLine(
      line({ counterpartyName: 'Acme Supplies' }),
      [],
      [bill(), bill({ id: 'bill-b', billNumber: 'INV-00043' })],
    );
    expect(d).toMatchObject({ kind: 'ask' });
    if (d.kind === 'ask') expect(d.candidates.map((c) => c.id)).toEqual(['bill-a', 'bill-b']);
    // The reference decides between them.
    expect(
      decideLine(
        line({ counterpartyName: 'Acme Supplies', reference: 'INV 43' }),
        [],
        [bill(), bill({ id: 'bill-b', billNumber: 'INV-00043' })],
      ),
    ).toMatchObject({ kind: 'settle_bill', billId: 'bill-b' });
    // A line naming both bills decides nothing.
    expect(
      decideLine(
        line({ reference: 'INV 42 / INV 43' }),
        [],
        [bill(), bill({ id: 'bill-b', billNumber: 'INV-00043' })],
      ),
    ).toMatchObject({ kind: 'ask' });
  });
});

describe('a statement', () => {
  it('a bill or entry two lines would take automatically is asked for both', () => {
    const lines = [line({ reference: 'INV-00042' }), line({ id: 'l2', reference: 'INV 42' })];
    const d = reconcile(lines, [], [bill()]);
    expect(d.map((x) => x.kind)).toEqual(['ask', 'ask']);
    const e = reconcile([line(), line({ id: 'l2' })], [entry()], []);
    expect(e.map((x) => x.kind)).toEqual(['ask', 'ask']);
  });

  it('independent lines keep their automatic matches', () => {
    const d = reconcile(
      [
        line({ reference: 'INV-00042' }),
        line({ id: 'l2', amountMinor: '-999' }),
        line({ id: 'l3', amountMinor: '-3000' }),
      ],
      [entry({ netMinor: '-999', entryDate: '2025-03-21' })],
      [bill()],
    );
    expect(d.map((x) => x.kind)).toEqual(['settle_bill', 'match_entry', 'none']);
  });
});

describe('answers', () => {
  const asked = [
    {
      id: 'l1',
      candidates: [
        { id: 'bill-a', kind: 'bill' as const },
        { id: 'bill-b', kind: 'bill' as const },
      ],
    },
    { id: 'l2', candidates: [{ id: 'je-1', kind: 'entry' as const }] },
    { id: 'l3', candidates: [{ id: 'bill-c', kind: 'bill' as const }] },
  ];

  it('applies offered ids and none; refuses the rest', () => {
    expect(
      applyAnswers(
        asked,
        new Map([
          ['l1', 'bill-b'],
          ['l2', 'je-1'],
          ['l3', 'none'],
        ]),
      ),
    ).toEqual([
      { kind: 'settle_bill', lineId: 'l1', billId: 'bill-b' },
      { kind: 'match_entry', lineId: 'l2', entryId: 'je-1' },
      { kind: 'hand_on', lineId: 'l3' },
    ]);
    const bad = applyAnswers(
      asked,
      new Map([
        ['l1', 'bill-c'],
        ['l3', 'bill-c'],
      ]),
    );
    expect(bad.map((a) => a.kind)).toEqual(['invalid', 'invalid', 'invalid']);
    expect(bad[0]).toMatchObject({ reason: 'bill-c was not offered for this line' });
    expect(bad[1]).toMatchObject({ reason: 'no answer' });
    expect(bad[2]).toMatchObject({ reason: 'bill-c was answered for 2 lines' });
  });
});
