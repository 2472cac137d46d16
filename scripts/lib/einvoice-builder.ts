import { PDFDocument, StandardFonts } from 'pdf-lib';

/**
 * Structured e-invoices made in the tests (CII D16B, UBL 2.1) from a few parameters, with their
 * totals computed here in integer cents, so a test states the invoice it means and can break
 * exactly one thing. `pdfInvoice` renders a visible page and attaches XML files as a PDF/A-3
 * invoice carries them. Shared by the tests and the bills bench.
 */
export interface InvoiceSpec {
  number: string;
  typeCode?: string;
  date?: string; // YYYY-MM-DD
  dueDate?: string;
  currency?: string;
  seller?: string;
  sellerVat?: string;
  sellerEmail?: string;
  iban?: string;
  bic?: string;
  buyer?: string;
  specification?: string;
  /** BT-25: the invoice a credit note or correction refers to. */
  precedingInvoice?: string;
  lines: { name: string; net: string; rate: string; category?: string }[];
  /** Replace a computed total (to make an invoice whose arithmetic is wrong). */
  override?: Partial<Record<'net' | 'tax' | 'gross' | 'due', string>>;
}

const cents = (d: string) => {
  const [i, f = ''] = d.replace('-', '').split('.');
  const v = BigInt(i!) * 100n + BigInt((f + '00').slice(0, 2));
  return d.startsWith('-') ? -v : v;
};
const dec = (c: bigint) => {
  const n = c < 0n;
  const a = n ? -c : c;
  return `${n ? '-' : ''}${a / 100n}.${(a % 100n).toString().padStart(2, '0')}`;
};
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function totalsOf(spec: InvoiceSpec) {
  const groups = new Map<string, { category: string; rate: string; base: bigint }>();
  for (const l of spec.lines) {
    const category = l.category ?? (Number(l.rate) === 0 ? 'Z' : 'S');
    const key = `${category}/${l.rate}`;
    const g = groups.get(key) ?? { category, rate: l.rate, base: 0n };
    g.base += cents(l.net);
    groups.set(key, g);
  }
  const breakdown = [...groups.values()].map((g) => ({
    ...g,
    // Half-up at the cent (away from zero for a negative base), in integers.
    tax:
      (((g.base < 0n ? -g.base : g.base) * BigInt(Math.round(Number(g.rate) * 100)) + 5000n) /
        10000n) *
      (g.base < 0n ? -1n : 1n),
  }));
  const net = breakdown.reduce((a, g) => a + g.base, 0n);
  const tax = breakdown.reduce((a, g) => a + g.tax, 0n);
  const o = spec.override ?? {};
  return {
    breakdown: breakdown.map((g) => ({
      category: g.category,
      rate: g.rate,
      base: dec(g.base),
      tax: dec(g.tax),
    })),
    lineNet: dec(net),
    net: o.net ?? dec(net),
    tax: o.tax ?? dec(tax),
    gross: o.gross ?? dec(net + tax),
    due: o.due ?? o.gross ?? dec(net + tax),
  };
}

const ymd = (d: string) => d.replace(/-/g, '');
/** A negative line is a returned quantity at its (never negative, BR-27) price. */
const qtyOf = (net: string) => (net.startsWith('-') ? '-1' : '1');

export function ciiInvoice(spec: InvoiceSpec): string {
  const t = totalsOf(spec);
  const cur = spec.currency ?? 'EUR';
  const date = spec.date ?? '2026-03-02';
  const lines = spec.lines
    .map(
      (l, i) => `
    <ram:IncludedSupplyChainTradeLineItem>
      <ram:AssociatedDocumentLineDocument><ram:LineID>${i + 1}</ram:LineID></ram:AssociatedDocumentLineDocument>
      <ram:SpecifiedTradeProduct><ram:Name>${esc(l.name)}</ram:Name></ram:SpecifiedTradeProduct>
      <ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>${l.net.replace(/^-/, '')}</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement>
      <ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="C62">${qtyOf(l.net)}</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>
      <ram:SpecifiedLineTradeSettlement>
        <ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>${l.category ?? (Number(l.rate) === 0 ? 'Z' : 'S')}</ram:CategoryCode><ram:RateApplicablePercent>${l.rate}</ram:RateApplicablePercent></ram:ApplicableTradeTax>
        <ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>${l.net}</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation>
      </ram:SpecifiedLineTradeSettlement>
    </ram:IncludedSupplyChainTradeLineItem>`,
    )
    .join('');
  const taxes = t.breakdown
    .map(
      (g) => `
      <ram:ApplicableTradeTax><ram:CalculatedAmount>${g.tax}</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:BasisAmount>${g.base}</ram:BasisAmount><ram:CategoryCode>${g.category}</ram:CategoryCode><ram:RateApplicablePercent>${g.rate}</ram:RateApplicablePercent></ram:ApplicableTradeTax>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100" xmlns:qdt="urn:un:unece:uncefact:data:standard:QualifiedDataType:100">
  <rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>${spec.specification ?? 'urn:cen.eu:en16931:2017'}</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
  <rsm:ExchangedDocument><ram:ID>${esc(spec.number)}</ram:ID><ram:TypeCode>${spec.typeCode ?? '380'}</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format="102">${ymd(date)}</udt:DateTimeString></ram:IssueDateTime></rsm:ExchangedDocument>
  <rsm:SupplyChainTradeTransaction>${lines}
    <ram:ApplicableHeaderTradeAgreement>
      <ram:SellerTradeParty>
        <ram:Name>${esc(spec.seller ?? 'Lieferant Nord GmbH')}</ram:Name>
        <ram:PostalTradeAddress><ram:PostcodeCode>20095</ram:PostcodeCode><ram:LineOne>Hafenstraße 1</ram:LineOne><ram:CityName>Hamburg</ram:CityName><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress>
        <ram:URIUniversalCommunication><ram:URIID schemeID="EM">${spec.sellerEmail ?? 'rechnung@lieferant-nord.de'}</ram:URIID></ram:URIUniversalCommunication>
        <ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">${spec.sellerVat ?? 'DE123456789'}</ram:ID></ram:SpecifiedTaxRegistration>
      </ram:SellerTradeParty>
      <ram:BuyerTradeParty><ram:Name>${esc(spec.buyer ?? 'Countersign Demo AG')}</ram:Name><ram:PostalTradeAddress><ram:CityName>Berlin</ram:CityName><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress></ram:BuyerTradeParty>
    </ram:ApplicableHeaderTradeAgreement>
    <ram:ApplicableHeaderTradeDelivery/>
    <ram:ApplicableHeaderTradeSettlement>
      <ram:InvoiceCurrencyCode>${cur}</ram:InvoiceCurrencyCode>
      <ram:SpecifiedTradeSettlementPaymentMeans><ram:TypeCode>58</ram:TypeCode><ram:PayeePartyCreditorFinancialAccount><ram:IBANID>${spec.iban ?? 'DE02120300000000202051'}</ram:IBANID></ram:PayeePartyCreditorFinancialAccount>${spec.bic ? `<ram:PayeeSpecifiedCreditorFinancialInstitution><ram:BICID>${spec.bic}</ram:BICID></ram:PayeeSpecifiedCreditorFinancialInstitution>` : ''}</ram:SpecifiedTradeSettlementPaymentMeans>${taxes}
      <ram:SpecifiedTradePaymentTerms><ram:Description>30 Tage netto</ram:Description><ram:DueDateDateTime><udt:DateTimeString format="102">${ymd(spec.dueDate ?? '2026-04-01')}</udt:DateTimeString></ram:DueDateDateTime></ram:SpecifiedTradePaymentTerms>
      <ram:SpecifiedTradeSettlementHeaderMonetarySummation>
        <ram:LineTotalAmount>${t.lineNet}</ram:LineTotalAmount>
        <ram:TaxBasisTotalAmount>${t.net}</ram:TaxBasisTotalAmount>
        <ram:TaxTotalAmount currencyID="${cur}">${t.tax}</ram:TaxTotalAmount>
        <ram:GrandTotalAmount>${t.gross}</ram:GrandTotalAmount>
        <ram:DuePayableAmount>${t.due}</ram:DuePayableAmount>
      </ram:SpecifiedTradeSettlementHeaderMonetarySummation>${
        spec.precedingInvoice
          ? `
      <ram:InvoiceReferencedDocument><ram:IssuerAssignedID>${esc(spec.precedingInvoice)}</ram:IssuerAssignedID></ram:InvoiceReferencedDocument>`
          : ''
      }
    </ram:ApplicableHeaderTradeSettlement>
  </rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>
`;
}

export function ublInvoice(spec: InvoiceSpec & { creditNote?: boolean }): string {
  const t = totalsOf(spec);
  const cur = spec.currency ?? 'EUR';
  const doc = spec.creditNote ? 'CreditNote' : 'Invoice';
  const line = spec.creditNote ? 'CreditNoteLine' : 'InvoiceLine';
  const qty = spec.creditNote ? 'CreditedQuantity' : 'InvoicedQuantity';
  const a = (v: string) => `currencyID="${cur}">${v}`;
  const party = (name: string, vat?: string) => `<cac:Party>
      <cac:PostalAddress><cbc:CityName>Amsterdam</cbc:CityName><cac:Country><cbc:IdentificationCode>NL</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
      ${vat ? `<cac:PartyTaxScheme><cbc:CompanyID>${vat}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>` : ''}
      <cac:PartyLegalEntity><cbc:RegistrationName>${esc(name)}</cbc:RegistrationName></cac:PartyLegalEntity>
    </cac:Party>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<${doc} xmlns="urn:oasis:names:specification:ubl:schema:xsd:${doc}-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:CustomizationID>${spec.specification ?? 'urn:cen.eu:en16931:2017'}</cbc:CustomizationID>
  <cbc:ID>${esc(spec.number)}</cbc:ID>
  <cbc:IssueDate>${spec.date ?? '2026-03-02'}</cbc:IssueDate>
  ${spec.creditNote ? '' : `<cbc:DueDate>${spec.dueDate ?? '2026-04-01'}</cbc:DueDate>`}
  <cbc:${doc}TypeCode>${spec.typeCode ?? (spec.creditNote ? '381' : '380')}</cbc:${doc}TypeCode>
  <cbc:DocumentCurrencyCode>${cur}</cbc:DocumentCurrencyCode>${
    spec.precedingInvoice
      ? `
  <cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>${esc(spec.precedingInvoice)}</cbc:ID></cac:InvoiceDocumentReference></cac:BillingReference>`
      : ''
  }
  <cac:AccountingSupplierParty>${party(spec.seller ?? 'Leverancier West B.V.', spec.sellerVat ?? 'NL123456789B01')}</cac:AccountingSupplierParty>
  <cac:AccountingCustomerParty>${party(spec.buyer ?? 'Countersign Demo B.V.')}</cac:AccountingCustomerParty>
  <cac:PaymentMeans><cbc:PaymentMeansCode>30</cbc:PaymentMeansCode><cac:PayeeFinancialAccount><cbc:ID>${spec.iban ?? 'NL91ABNA0417164300'}</cbc:ID></cac:PayeeFinancialAccount></cac:PaymentMeans>
  <cac:TaxTotal>
    <cbc:TaxAmount ${a(t.tax)}</cbc:TaxAmount>${t.breakdown
      .map(
        (g) => `
    <cac:TaxSubtotal><cbc:TaxableAmount ${a(g.base)}</cbc:TaxableAmount><cbc:TaxAmount ${a(g.tax)}</cbc:TaxAmount><cac:TaxCategory><cbc:ID>${g.category}</cbc:ID><cbc:Percent>${g.rate}</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal>`,
      )
      .join('')}
  </cac:TaxTotal>
  <cac:LegalMonetaryTotal>
    <cbc:LineExtensionAmount ${a(t.lineNet)}</cbc:LineExtensionAmount>
    <cbc:TaxExclusiveAmount ${a(t.net)}</cbc:TaxExclusiveAmount>
    <cbc:TaxInclusiveAmount ${a(t.gross)}</cbc:TaxInclusiveAmount>
    <cbc:PayableAmount ${a(t.due)}</cbc:PayableAmount>
  </cac:LegalMonetaryTotal>${spec.lines
    .map(
      (l, i) => `
  <cac:${line}>
    <cbc:ID>${i + 1}</cbc:ID>
    <cbc:${qty} unitCode="C62">${qtyOf(l.net)}</cbc:${qty}>
    <cbc:LineExtensionAmount ${a(l.net)}</cbc:LineExtensionAmount>
    <cac:Item><cbc:Name>${esc(l.name)}</cbc:Name><cac:ClassifiedTaxCategory><cbc:ID>${l.category ?? (Number(l.rate) === 0 ? 'Z' : 'S')}</cbc:ID><cbc:Percent>${l.rate}</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory></cac:Item>
    <cac:Price><cbc:PriceAmount ${a(l.net.replace(/^-/, ''))}</cbc:PriceAmount></cac:Price>
  </cac:${line}>`,
    )
    .join('')}
</${doc}>
`;
}

/** A one-page PDF showing `lines` of text, with the given files embedded (PDF/A-3 style). */
export async function pdfInvoice(
  lines: string[],
  attachments: { name: string; xml: string }[] = [],
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  lines.forEach((l, i) => page.drawText(l, { x: 50, y: 790 - i * 18, size: 11, font }));
  for (const a of attachments)
    await pdf.attach(Buffer.from(a.xml, 'utf8'), a.name, {
      mimeType: 'text/xml',
      description: 'Factur-X invoice',
      creationDate: new Date('2026-03-02T00:00:00Z'),
      modificationDate: new Date('2026-03-02T00:00:00Z'),
    });
  return pdf.save({ useObjectStreams: false });
}
