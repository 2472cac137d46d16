import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readBillDocument } from '../activities/bills/read-bill';
import { ciiInvoice } from '../scripts/lib/einvoice-builder';
import { ciusSefPath } from '../activities/bills/einvoice/cius-validation';

/**
 * PEPPOL BIS Billing 3.0 (a CIUS of EN 16931): an invoice whose BT-24 names it is judged by
 * the PEPPOL rules on top of the norm's (pure: no database, no Temporal).
 */
beforeAll(() => {
  if (!existsSync(ciusSefPath('peppol', 'ubl')))
    throw new Error('The PEPPOL BIS 3 rules are not installed: run `npm run en16931-rules`');
});

const VALID = readFileSync(join(__dirname, 'fixtures/einvoice/peppol-bis3-invoice.xml'), 'utf8');
const xmlDoc = (xml: string) => ({
  mimeType: 'application/xml',
  bytes: new Uint8Array(Buffer.from(xml, 'utf8')),
  pages: [] as string[],
});

describe('PEPPOL BIS Billing 3.0 rules', () => {
  it('a valid PEPPOL invoice passes both rule sets', async () => {
    const ex = await readBillDocument(xmlDoc(VALID));
    expect(ex.outcome).toBe('ready');
    expect(ex.checks.find((c) => c.name === 'rules_valid')?.detail).toMatch(
      /^en16931-1\.3\.16\+peppol-bis3-2026\.5: no fatal finding/,
    );
  });

  it('without a buyer reference (PEPPOL-EN16931-R003, not an EN 16931 rule) it goes to review', async () => {
    const xml = VALID.replace(/\s*<cbc:BuyerReference>[^<]*<\/cbc:BuyerReference>/, '');
    expect(xml).not.toContain('BuyerReference');
    const ex = await readBillDocument(xmlDoc(xml));
    expect(ex.outcome).toBe('human_review');
    expect(ex.reasons.join(' ')).toMatch(
      /rules_valid: en16931-1\.3\.16\+peppol-bis3-2026\.5: \[PEPPOL-EN16931-R003\]/,
    );
  });

  it('the same invoice without the PEPPOL claim is judged by EN 16931 alone', async () => {
    const xml = VALID.replace(/\s*<cbc:BuyerReference>[^<]*<\/cbc:BuyerReference>/, '').replace(
      /<cbc:CustomizationID>[^<]*</,
      '<cbc:CustomizationID>urn:cen.eu:en16931:2017<',
    );
    const ex = await readBillDocument(xmlDoc(xml));
    expect(ex.outcome).toBe('ready');
  });
});

describe('XRechnung 3.0 rules', () => {
  const spec = {
    number: 'RE-2026-0042',
    lines: [{ name: 'Beratung März', net: '1200.00', rate: '19' }],
  };
  it('an invoice claiming XRechnung 3.0 without a buyer reference goes to review (BR-DE-15)', async () => {
    const ex = await readBillDocument(
      xmlDoc(
        ciiInvoice({
          ...spec,
          specification: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
        }),
      ),
    );
    expect(ex.outcome).toBe('human_review');
    expect(ex.reasons.join(' ')).toMatch(
      /rules_valid: en16931-1\.3\.16\+xrechnung-3\.0\.2: .*\[BR-DE-15\]/,
    );
  });
  it('the same invoice claiming only EN 16931 is ready', async () => {
    expect((await readBillDocument(xmlDoc(ciiInvoice(spec)))).outcome).toBe('ready');
  });
});
