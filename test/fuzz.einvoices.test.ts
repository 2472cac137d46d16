import fc from 'fast-check';
import { readBillDocument } from '../activities/bills/read-bill';
import { readStructuredInvoice } from '../activities/bills/einvoice/read-structured';
import { EInvoiceRefusal } from '../activities/bills/einvoice/xml';
import { BillExtractionSchema } from '../workflows/bills/extraction';
import { ciiInvoice, ublInvoice, type InvoiceSpec } from '../scripts/lib/einvoice-builder';

/**
 * Structured e-invoices under corruption, as the other importers are fuzzed: cut, spliced,
 * bit-flipped and element-shuffled XML, and random numbers in every amount. Every outcome is a
 * reading or a typed EInvoiceRefusal — never an untyped throw — within a time bound; and the
 * bill reader never posts a bill whose own arithmetic it did not check: anything `ready` has
 * net + tax = gross exactly and passed the official rules.
 */
const SPEC: InvoiceSpec = {
  number: 'FZ-1',
  lines: [
    { name: 'A', net: '100.00', rate: '19' },
    { name: 'B', net: '20.50', rate: '7' },
  ],
};
const SEEDS = [ciiInvoice(SPEC), ublInvoice(SPEC)];
const RUNS = 60;

function outcome(xml: string): 'read' | EInvoiceRefusal['code'] {
  try {
    readStructuredInvoice(xml);
    return 'read';
  } catch (err) {
    if (err instanceof EInvoiceRefusal) return err.code;
    throw err;
  }
}

const mutation = fc.oneof(
  // Cut anywhere.
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
  // Splice a random string in.
  fc.record({
    kind: fc.constant('splice' as const),
    at: fc.nat(),
    text: fc.string({ maxLength: 40 }),
  }),
  // Flip a character.
  fc.record({
    kind: fc.constant('flip' as const),
    at: fc.nat(),
    code: fc.integer({ min: 0, max: 0xffff }),
  }),
  // Drop one element line.
  fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;
function mutate(xml: string, m: Mutation): string {
  const at = m.at % Math.max(1, xml.length);
  switch (m.kind) {
    case 'cut':
      return xml.slice(0, at);
    case 'splice':
      return xml.slice(0, at) + m.text + xml.slice(at);
    case 'flip':
      return xml.slice(0, at) + String.fromCharCode(m.code) + xml.slice(at + 1);
    case 'drop': {
      const lines = xml.split('\n');
      lines.splice(m.at % lines.length, 1);
      return lines.join('\n');
    }
  }
}

it('mutated XML is read or refused with a type, each within 2 s', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...SEEDS),
      fc.array(mutation, { minLength: 1, maxLength: 4 }),
      (seed, ms) => {
        const xml = ms.reduce(mutate, seed);
        const t0 = performance.now();
        const o = outcome(xml);
        expect(['read', 'malformed', 'not_an_invoice', 'dtd_forbidden', 'too_large']).toContain(o);
        expect(performance.now() - t0).toBeLessThan(2000);
      },
    ),
    { numRuns: RUNS, seed: 20261204 },
  );
});

it('random amounts never post a bill that does not add up', async () => {
  const amount = fc
    .tuple(fc.integer({ min: -99999, max: 999999 }), fc.integer({ min: 0, max: 99 }))
    .map(([i, c]) => `${i}.${String(c).padStart(2, '0')}`);
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('cii', 'ubl'),
      fc.record({ net: fc.option(amount), tax: fc.option(amount), gross: fc.option(amount) }),
      async (syntax, o) => {
        const override = Object.fromEntries(
          Object.entries(o).filter(([, v]) => v !== null),
        ) as InvoiceSpec['override'];
        const xml = (syntax === 'cii' ? ciiInvoice : ublInvoice)({ ...SPEC, override });
        const ex = BillExtractionSchema.parse(
          await readBillDocument({
            mimeType: 'application/xml',
            bytes: new Uint8Array(Buffer.from(xml)),
            pages: [],
          }),
        );
        if (ex.outcome !== 'ready') return;
        // Two-place decimals (the schema's form) as hundredths, without a float.
        const c = (d: string | null) => BigInt(d!.replace('.', ''));
        expect(c(ex.amountUntaxed) + c(ex.amountTax)).toBe(c(ex.amount));
        expect(ex.structured!.validation.status).toBe('valid');
      },
    ),
    { numRuns: 40, seed: 20261204 },
  );
});
