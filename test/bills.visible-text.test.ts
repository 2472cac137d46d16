import { datesIn } from '../activities/bills/dates';
import { extractBill } from '../activities/bills/extract-bill';
import { labelsIn, NOT_A_BILL } from '../activities/bills/labels';
import { extractPdfText } from '../activities/documents/pdf-text';
import {
  chooseVariant,
  formatMoney,
  layoutInvoice,
  renderPdf,
  type Gold,
} from '../scripts/eval/render-invoices';

/**
 * The visible-text bill reader on invoices in German, French, English, Dutch, Spanish and
 * Italian: labels, number and date formats and layouts it was not built from (text fixtures
 * written here, in the column layout the PDF extraction prints: cells three spaces apart),
 * the checks that keep it from posting a wrong bill, and PDFs rendered by the unseen-set
 * script read back through the project's own PDF text extraction.
 */

const read = (text: string) => extractBill([text]);
const fields = (text: string) => {
  const b = read(text);
  return {
    outcome: b.outcome,
    number: b.invoiceNumber,
    date: b.issueDate,
    currency: b.currency,
    gross: b.amount,
    net: b.amountUntaxed,
    tax: b.amountTax,
    issuer: b.issuer,
  };
};

describe('labels per language', () => {
  it('reads the labels real invoices print, the longest phrase winning', () => {
    const kinds = (l: string) => labelsIn(l).map((h) => `${h.kind}:${h.text}`);
    expect(kinds('Rechnungs-Nr.: 4711')).toEqual(['number:Rechnungs-Nr.']);
    expect(kinds('Belegnummer 1100512149   Rechnungsdatum 10. November 2014')).toEqual([
      'number:Belegnummer',
      'issue_date:Rechnungsdatum',
    ]);
    expect(kinds('Gesamtbetrag netto   100,00 €')).toEqual(['net:Gesamtbetrag netto']);
    expect(kinds('Zahlbetrag   119,00 €')).toEqual(['due:Zahlbetrag']);
    expect(kinds('Total hors taxes   Montant TVA 7 %   Total toutes taxes comprises')).toEqual([
      'net:Total hors taxes',
      'tax:Montant TVA',
      'gross:Total toutes taxes comprises',
    ]);
    expect(kinds('NET A PAYER   104,90 EUR')).toEqual(['due:NET A PAYER']);
    expect(kinds('Total líneas:   EUR 1.000,00')).toEqual(['net:Total líneas']);
    expect(kinds('Total con IVA:   EUR 1.210,00')).toEqual(['gross:Total con IVA']);
    expect(kinds('Totaal incl. btw   € 121,00')).toEqual(['gross:Totaal incl. btw']);
    expect(kinds('Totale imponibile   170,28')).toEqual(['net:Totale imponibile']);
    expect(kinds('N° DE FACTURE ASSOCIÉE : F20260003')).toEqual([
      'other_ref:N° DE FACTURE ASSOCIÉE',
    ]);
  });

  it('tells a credit note or pro forma title from running text', () => {
    expect(NOT_A_BILL.test('Gutschrift Nr. 2024-11')).toBe(true);
    expect(NOT_A_BILL.test('Avoir n° AV-0012')).toBe(true);
    expect(NOT_A_BILL.test('Proforma-Rechnung')).toBe(true);
    expect(NOT_A_BILL.test('Bei Gutschrift auf unserem Konto')).toBe(false);
    expect(NOT_A_BILL.test('Rechnung')).toBe(false);
  });

  it('reads month names in the six languages', () => {
    const iso = (s: string) => datesIn(s)[0]?.iso;
    expect(iso('24. Dezember 2024')).toBe('2024-12-24');
    expect(iso('24 décembre 2024')).toBe('2024-12-24');
    expect(iso('December 24, 2024')).toBe('2024-12-24');
    expect(iso('24 december 2024')).toBe('2024-12-24');
    expect(iso('24 de diciembre de 2024')).toBe('2024-12-24');
    expect(iso('24 dicembre 2024')).toBe('2024-12-24');
    expect(iso('24.12.2024')).toBe('2024-12-24');
  });
});

describe('invoices in six languages and several layouts', () => {
  it('German: label and value on one line, € after the amount, dotted thousands', () => {
    const text = [
      'Hartmann Bürotechnik',
      'Industriestraße 12',
      '10115 Berlin',
      '',
      'Hartmann Bürotechnik · Industriestraße 12 · 10115 Berlin',
      'Rechnungsempfänger:',
      'Meyer Logistik GmbH',
      'Hafenweg 3',
      '20457 Hamburg',
      'RECHNUNG',
      'Rechnungs-Nr.: RE-2024-0815   Rechnungsdatum: 24.12.2024',
      'Kunden-Nr.: 10042   Leistungsdatum: 20.12.2024',
      'Pos.   Beschreibung   Menge   Einzelpreis   Betrag',
      '1   Wartungsvertrag   1   1.200,00   1.200,00',
      '2   Toner   4   25,00   100,00',
      'Nettobetrag   1.300,00 €',
      'USt. 19 %   247,00 €',
      'Bruttobetrag   1.547,00 €',
      'Zahlbetrag   1.547,00 €',
      'Hartmann Bürotechnik, Berlin   Seite 1 von 1',
    ].join('\n');
    expect(fields(text)).toEqual({
      outcome: 'ready',
      number: 'RE-2024-0815',
      date: '2024-12-24',
      currency: 'EUR',
      gross: '1547.00',
      net: '1300.00',
      tax: '247.00',
      issuer: 'Hartmann Bürotechnik',
    });
  });

  it('French: values under a header row, space thousands split by the layout, currency in a note', () => {
    const text = [
      'Atelier Lumière SARL',
      '8 rue des Lilas',
      '69002 Lyon',
      'Facturé à :',
      'Bureau Vallée Lyon',
      '12 quai Perrache',
      'FACTURE',
      'N° de facture   Date de facture   Code client',
      'F-2024-118   24 décembre 2024   C0042',
      'Montants exprimés en EUR',
      'Réf.   Désignation   Quantité   Prix unitaire HT   Montant HT',
      '1   Luminaires sur mesure   2   1   050,00   2   100,00',
      'Total HT   2   100,00',
      'TVA 20 %   420,00',
      'Total TTC   2   520,00',
      'Atelier Lumière SARL, Lyon   Page 1/1',
    ].join('\n');
    expect(fields(text)).toEqual({
      outcome: 'ready',
      number: 'F-2024-118',
      date: '2024-12-24',
      currency: 'EUR',
      gross: '2520.00',
      net: '2100.00',
      tax: '420.00',
      issuer: 'Atelier Lumière SARL',
    });
  });

  it('Dutch: label above its value in a right-hand column, currency in its own cell', () => {
    const text = [
      'Van Dijk Installatietechniek B.V.',
      'Keizersgracht 221',
      '1017 EB Amsterdam',
      'Factuuradres:   Factuurnummer',
      'De Groot Bouw   2024-0931',
      'Dorpsstraat 4   Factuurdatum',
      '3011 AA Rotterdam   24-12-2024',
      'FACTUUR',
      'Nr.   Omschrijving   Aantal   Prijs   Bedrag',
      '1   Installatie warmtepomp   1   4.000,00   4.000,00',
      'Totaal excl. btw   €   4.000,00',
      'Btw 21%   €   840,00',
      'Totaal incl. btw   €   4.840,00',
      'Van Dijk Installatietechniek B.V., Amsterdam   Pagina 1 van 1',
    ].join('\n');
    expect(fields(text)).toMatchObject({
      outcome: 'ready',
      number: '2024-0931',
      date: '2024-12-24',
      currency: 'EUR',
      gross: '4840.00',
      net: '4000.00',
      tax: '840.00',
    });
  });

  it('Spanish: a totals table (labels in a head row, values below), month names', () => {
    const text = [
      'Suministros Levante S.L.',
      'Calle Mayor 5',
      '28001 Madrid',
      'Facturar a:',
      'Harbour Analytics Ltd',
      'FACTURA',
      'Nº de factura: 2024/332',
      'Fecha de emisión: 24 de diciembre de 2024',
      'Ref.   Descripción   Cantidad   Precio unitario   Importe',
      '1   Material de oficina   10   12,00   120,00',
      'Base imponible   IVA (21 %)   Total factura',
      '€   120,00   €   25,20   €   145,20',
      'Suministros Levante S.L., Madrid   Página 1 de 1',
    ].join('\n');
    expect(fields(text)).toEqual({
      outcome: 'ready',
      number: '2024/332',
      date: '2024-12-24',
      currency: 'EUR',
      gross: '145.20',
      net: '120.00',
      tax: '25.20',
      issuer: 'Suministros Levante S.L.',
    });
  });

  it('Italian: number and date in the title line, two VAT rates with a total', () => {
    const text = [
      'Rossi Forniture S.r.l.',
      'Via Roma 45',
      '20121 Milano',
      'Spett.le',
      'Café Central OHG',
      'FATTURA',
      'Fattura n. 118/2024   Data 24/12/2024',
      'Cod.   Descrizione   Quantità   Prezzo unitario   Importo',
      '1   Carta A4   10   5,00   50,00',
      '2   Libri   5   20,00   100,00',
      'Totale imponibile   150,00 €',
      'IVA 22% su 50,00   11,00 €',
      'IVA 4% su 100,00   4,00 €',
      'Totale IVA   15,00 €',
      'Totale documento   165,00 €',
      'Rossi Forniture S.r.l., Milano   Pagina 1 di 1',
    ].join('\n');
    expect(fields(text)).toMatchObject({
      outcome: 'ready',
      number: '118/2024',
      date: '2024-12-24',
      currency: 'EUR',
      gross: '165.00',
      net: '150.00',
      tax: '15.00',
      issuer: 'Rossi Forniture S.r.l.',
    });
  });

  it('English: comma thousands, a VAT breakdown table confirming the totals', () => {
    const text = [
      'Brightline Consulting Ltd',
      '17 High Street',
      'London EC1A 1BB',
      'Bill to:',
      'Harbour Analytics Ltd',
      'INVOICE',
      'Invoice No.: INV-2024-077',
      'Invoice date: December 24, 2024',
      'VAT rate   Net amount   VAT amount',
      '20%   12,500.00   2,500.00',
      'Amount due   £15,000.00',
      'Brightline Consulting Ltd · London',
    ].join('\n');
    expect(fields(text)).toMatchObject({
      outcome: 'ready',
      number: 'INV-2024-077',
      date: '2024-12-24',
      currency: 'GBP',
      gross: '15000.00',
      net: '12500.00',
      tax: '2500.00',
    });
  });
});

describe('currencies and dates printed apart from the figures', () => {
  it('takes the currency from a column head and a due amount phrased as a sentence', () => {
    const text = [
      'Bergmann & Söhne KG',
      'Lindenallee 3   80333 München',
      'Rechnung',
      'Rechnungsnr.: 2018-0305   Datum: 05-Mar-2018',
      'Pos.   Artikel   Menge   Preis EUR   Betrag EUR',
      '1   Schrauben M6   100   0,50   50,00',
      '2   Muttern M6   100   0,30   30,00',
      'Summe netto   80,00',
      '19 % USt.   15,20',
      'Zu zahlender Betrag   95,20',
      'Bergmann & Söhne KG · Lindenallee 3 · 80333 München',
    ].join('\n');
    expect(fields(text)).toMatchObject({
      outcome: 'ready',
      number: '2018-0305',
      date: '2018-03-05',
      currency: 'EUR',
      gross: '95.20',
      net: '80.00',
      tax: '15.20',
    });
  });
});

describe('a tax named inside a total label', () => {
  it('leaves the figure to the total ("Gesamtbetrag (inkl. 19% MwSt.)")', () => {
    const text = [
      'Kessler Maschinenbau AG',
      'Rechnungsnummer: 2024-557',
      'Rechnungsdatum: 24.12.2024',
      'Nettobetrag   100,00 €',
      'MwSt. 19 %   19,00 €',
      'Gesamtbetrag   (inkl. 19% MwSt.)   119,00 €',
    ].join('\n');
    expect(fields(text)).toMatchObject({ outcome: 'ready', gross: '119.00', tax: '19.00' });
  });
});

describe('the checks that keep wrong bills from posting', () => {
  const base = [
    'Kessler Maschinenbau AG',
    'Werkstraße 1',
    '70173 Stuttgart',
    'RECHNUNG',
    'Rechnungsnummer: 2024-555',
    'Rechnungsdatum: 24.12.2024',
  ];

  it('a lines total next to a zero-rate row is no gross', () => {
    const b = read(
      [
        ...base,
        'Total líneas:   EUR 1.000,00',
        'IVA 0% sobre 0,00:   EUR 0,00',
        'IVA 21% sobre 1.000,00:   EUR 210,00',
        'Total con IVA:   EUR 1.210,00',
      ].join('\n'),
    );
    expect(b.amount).toBe('1210.00');
    expect(b.amountUntaxed).toBe('1000.00');
  });

  it('a tax total that disagrees with its breakdown goes to a person', () => {
    const b = read(
      [
        ...base,
        'Nettobetrag   150,00 €',
        'MwSt. 19 % auf 100,00   19,00 €',
        'MwSt. 7 % auf 50,00   3,50 €',
        'MwSt. gesamt   23,50 €',
        'Gesamtbetrag brutto   172,50 €',
      ].join('\n'),
    );
    expect(b.outcome).toBe('human_review');
    expect(b.reasons.join(' ')).toMatch(/also prints a tax of 23.50/);
  });

  it('a tax word in an item description is no tax label', () => {
    const b = read(
      [
        ...base,
        'Pos.   Beschreibung   Menge   Einzelpreis   Betrag',
        '1   Road tax   1   2.500,00   2.500,00',
        '2   Register fee   1   700,00   700,00',
        'Summe netto   3.200,00 EUR',
        'zzgl. 0 % MwSt.   0,00 EUR',
        'Rechnungsbetrag   3.200,00 EUR',
      ].join('\n'),
    );
    expect(b.outcome).toBe('ready');
    expect(b.amountTax).toBe('0.00');
  });

  it("a line table's first row is not taken for the bill's totals", () => {
    const b = read(
      [
        ...base,
        'Qty   Net amount   VAT   Total',
        '1   100,00 €   19,00 €   119,00 €',
        '2   200,00 €   38,00 €   238,00 €',
      ].join('\n'),
    );
    expect(b.outcome).toBe('human_review');
    expect(b.amount).not.toBe('119.00');
  });

  it('a credit note printed with positive totals goes to a person', () => {
    const b = read(
      [
        'Kessler Maschinenbau AG',
        'Gutschrift',
        'Rechnungsnummer: 2024-556',
        'Rechnungsdatum: 24.12.2024',
        'Nettobetrag   100,00 €',
        'MwSt. 19 %   19,00 €',
        'Gesamtbetrag   119,00 €',
      ].join('\n'),
    );
    expect(b.outcome).toBe('human_review');
    expect(b.reasons.join(' ')).toMatch(/document_kind: "Gutschrift"/);
  });

  it('an invoice number next to a preceding-invoice reference stays unique', () => {
    const b = read(
      [
        ...base.slice(0, 4),
        'FACTURE N° :   F2026-23',
        'Date :   31/01/2026',
        'N° DE FACTURE ASSOCIÉE : F2026-03',
        'Total HT   100,00 €',
        'TVA 20 %   20,00 €',
        'Total TTC   120,00 €',
      ].join('\n'),
    );
    expect(b.invoiceNumber).toBe('F2026-23');
    expect(b.outcome).toBe('ready');
  });
});

describe('invoices rendered by the unseen-set script, read back from PDF', () => {
  const party = (name: string, city: string) => ({
    name,
    street: 'Hauptstraße 1',
    city,
    postcode: '10115',
    country: 'DE',
    vatId: null,
  });
  const gold = (over: Partial<Gold>): Gold => ({
    source: 'test/inline.xml',
    number: 'RE-2024-001',
    issueDate: '2024-12-24',
    dueDate: '2025-01-23',
    deliveryDate: null,
    orderRef: 'PO-77',
    buyerRef: null,
    currency: 'EUR',
    seller: party('Nordwind Handelsgesellschaft mbH', 'Berlin'),
    buyer: party('Stadtwerke Musterstadt', 'Musterstadt'),
    iban: 'DE02120300000000202051',
    lines: [
      { name: 'Beratung', qty: '10', price: '120.00', amount: 120000n },
      { name: 'Reisekosten', qty: '1', price: '234.56', amount: 23456n },
    ],
    adjustments: [],
    vat: [{ rate: '19', base: 143456n, tax: 27257n }],
    lineTotal: 143456n,
    net: 143456n,
    tax: 27257n,
    gross: 170713n,
    prepaid: 0n,
    payable: 170713n,
    ...over,
  });

  it('formats money as the variant says', () => {
    expect(formatMoney(123456n, 'EUR', 'dot-comma', 'symbol-after')).toBe('1.234,56 €');
    expect(formatMoney(123456n, 'EUR', 'space-comma', 'code-after')).toBe('1 234,56 EUR');
    expect(formatMoney(123456n, 'GBP', 'comma-dot', 'symbol-before')).toBe('£ 1,234.56');
  });

  it('reads three rendered invoices back with every gold field right', async () => {
    const cases: Gold[] = [
      gold({ source: 'test/a.xml' }),
      gold({
        source: 'test/b.xml',
        number: 'F-2024-118',
        currency: 'EUR',
        seller: party('Atelier Lumière SARL', 'Lyon'),
      }),
      gold({
        source: 'test/c.xml',
        number: 'INV-77',
        currency: 'GBP',
        seller: party('Brightline Consulting Ltd', 'London'),
        vat: [
          { rate: '20', base: 120000n, tax: 24000n },
          { rate: '5', base: 23456n, tax: 1173n },
        ],
        tax: 25173n,
        gross: 168629n,
        payable: 168629n,
      }),
    ];
    for (const [i, g] of cases.entries()) {
      const variant = { ...chooseVariant(g.source, 0), trap: null };
      const inv = layoutInvoice(g, variant);
      const pages = (await extractPdfText(await renderPdf(inv))).pages.map((p) => p.text);
      const b = extractBill(pages);
      const e = inv.expected;
      expect({ i, layout: variant.layout, lang: variant.lang, outcome: b.outcome }).toEqual({
        i,
        layout: variant.layout,
        lang: variant.lang,
        outcome: 'ready',
      });
      expect([
        b.invoiceNumber,
        b.issueDate,
        b.currency,
        b.amount,
        b.amountUntaxed,
        b.amountTax,
      ]).toEqual([e.invoice_number, e.date, e.currency, e.amount, e.amount_untaxed, e.amount_tax]);
    }
  });

  it('sends a rendered trap (totals that do not add up) to a person', async () => {
    const g = gold({ source: 'test/trap.xml' });
    const inv = layoutInvoice(g, chooseVariant(g.source, 0, 'arithmetic'));
    expect(inv.expected.outcome).toBe('human_review');
    const pages = (await extractPdfText(await renderPdf(inv))).pages.map((p) => p.text);
    expect(extractBill(pages).outcome).toBe('human_review');
  });
});
