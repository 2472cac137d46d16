import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  PDFString,
  PDFHexString,
  StandardFonts,
  decodePDFRawStream,
  type PDFFont,
  type PDFPage,
} from 'pdf-lib';

/**
 * An unseen set for the visible-text bill reader: invoice PDFs rendered from the structured
 * sample e-invoices (EN 16931 CII / UBL, XRechnung, PEPPOL), so the XML is the gold. Each XML
 * is drawn in several layouts and languages (de, fr, en, nl, es, it) with the labels, number
 * and date formats real invoices print; the choice per file is seeded by its name and variant,
 * never by anything the reader does. A few variants are traps that must not post.
 *
 *   npx tsx scripts/eval/render-invoices.ts [--src DIR] [--out DIR] [--variants N (3)] [--seed S]
 *
 * Writes `<out>/*.pdf` and `<out>/expected.json` (file → gold fields, as loadDataset reads).
 * The output never goes into the repository: generated PDFs are rebuilt from the XMLs.
 */

// ---- gold from the XML ------------------------------------------------------------------------

/** Money as integer hundredths; a decimal with more than two places is kept as printed text. */
export interface Gold {
  source: string;
  number: string;
  issueDate: string;
  dueDate: string | null;
  deliveryDate: string | null;
  orderRef: string | null;
  buyerRef: string | null;
  currency: string;
  seller: Party;
  buyer: Party;
  iban: string | null;
  lines: { name: string; qty: string; price: string | null; amount: bigint }[];
  /** Document-level allowances (negative) and charges (positive). */
  adjustments: { reason: string; amount: bigint }[];
  vat: { rate: string | null; base: bigint; tax: bigint }[];
  lineTotal: bigint | null;
  net: bigint;
  tax: bigint;
  gross: bigint;
  prepaid: bigint;
  payable: bigint;
}
export interface Party {
  name: string;
  street: string | null;
  city: string | null;
  postcode: string | null;
  country: string | null;
  vatId: string | null;
}

type X = Record<string, unknown>;
const arr = (v: unknown): unknown[] =>
  v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];
const obj = (v: unknown): X => (v && typeof v === 'object' && !Array.isArray(v) ? (v as X) : {});
const first = (v: unknown): unknown => arr(v)[0];
/** The text of an element that may carry attributes ({'#text': .., '@_currencyID': ..}). */
function text(v: unknown): string | null {
  const f = first(v);
  if (f === undefined || f === null) return null;
  if (typeof f === 'object') {
    const t = (f as X)['#text'];
    return t === undefined || t === null ? null : String(t).trim();
  }
  const s = String(f).trim();
  return s === '' ? null : s;
}
const path = (v: unknown, ...keys: string[]): unknown =>
  keys.reduce<unknown>((o, k) => obj(first(o))[k], v);

/** "229.6" → 22960n; null when not a decimal with at most two places. */
export function cents(s: string | null): bigint | null {
  if (s === null) return null;
  const m = /^(-?)(\d+)(?:\.(\d{1,2})0*|\.0*)?$/.exec(s.trim());
  if (!m) return null;
  const v = BigInt(m[2]!) * 100n + BigInt(((m[3] ?? '') + '00').slice(0, 2));
  return m[1] ? -v : v;
}
const isoDate = (s: string | null): string | null => {
  if (!s) return null;
  const m = /^(\d{4})-?(\d{2})-?(\d{2})/.exec(s.trim());
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
};

const parser = new XMLParser({
  ignoreAttributes: false,
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
  trimValues: true,
});

function ciiParty(p: unknown): Party {
  const addr = path(p, 'PostalTradeAddress');
  const vat = arr(obj(first(p)).SpecifiedTaxRegistration)
    .map((r) => obj(r).ID)
    .find((id) => /VA/.test(String(obj(first(id))['@_schemeID'] ?? '')));
  return {
    name: text(obj(first(p)).Name) ?? '',
    street: text(obj(first(addr)).LineOne),
    city: text(obj(first(addr)).CityName),
    postcode: text(obj(first(addr)).PostcodeCode),
    country: text(obj(first(addr)).CountryID),
    vatId: text(vat),
  };
}

function ublParty(p: unknown): Party {
  const party = path(p, 'Party');
  const addr = path(party, 'PostalAddress');
  const a = obj(first(addr));
  const name =
    text(path(party, 'PartyName', 'Name')) ??
    text(path(party, 'PartyLegalEntity', 'RegistrationName')) ??
    '';
  const vat = arr(obj(first(party)).PartyTaxScheme).find(
    (s) => text(path(s, 'TaxScheme', 'ID')) === 'VAT',
  );
  return {
    name,
    street: text(a.StreetName),
    city: text(a.CityName),
    postcode: text(a.PostalZone),
    country: text(path(addr, 'Country', 'IdentificationCode')),
    vatId: vat ? text(obj(vat).CompanyID) : null,
  };
}

const inCurrency = (v: unknown, currency: string): string | null => {
  const all = arr(v);
  const hit =
    all.find((t) => obj(t)['@_currencyID'] === currency) ?? (all.length === 1 ? all[0] : undefined);
  return hit === undefined ? null : text(hit);
};

/** The gold fields of a CII or UBL invoice; null when it is not a usable invoice. */
export function parseInvoiceXml(xml: string, source: string): Gold | null {
  let doc: X;
  try {
    doc = obj(parser.parse(xml));
  } catch {
    return null;
  }
  let g: Omit<Gold, 'source'> | null = null;
  if (doc.CrossIndustryInvoice) g = fromCii(obj(doc.CrossIndustryInvoice));
  else if (doc.Invoice) g = fromUbl(obj(doc.Invoice));
  if (!g) return null;
  if (!g.seller.name || !g.number || !g.issueDate || !/^[A-Z]{3}$/.test(g.currency)) return null;
  if (g.gross <= 0n || g.net + g.tax !== g.gross) return null;
  return { source, ...g };
}

function fromCii(root: X): Omit<Gold, 'source'> | null {
  const ed = root.ExchangedDocument;
  const type = text(path(ed, 'TypeCode'));
  if (type === '381') return null;
  const tx = root.SupplyChainTradeTransaction;
  const agreement = path(tx, 'ApplicableHeaderTradeAgreement');
  const settlement = path(tx, 'ApplicableHeaderTradeSettlement');
  const delivery = path(tx, 'ApplicableHeaderTradeDelivery');
  const s = obj(first(settlement));
  const currency = text(s.InvoiceCurrencyCode) ?? '';
  const sum = obj(first(s.SpecifiedTradeSettlementHeaderMonetarySummation));
  const net = cents(text(sum.TaxBasisTotalAmount));
  const tax = cents(inCurrency(sum.TaxTotalAmount, currency)) ?? 0n;
  const gross = cents(text(sum.GrandTotalAmount));
  const payable = cents(text(sum.DuePayableAmount));
  if (net === null || gross === null) return null;
  const lines = arr(obj(first(tx)).IncludedSupplyChainTradeLineItem).map((li) => {
    const amount = cents(
      text(
        path(
          li,
          'SpecifiedLineTradeSettlement',
          'SpecifiedTradeSettlementLineMonetarySummation',
          'LineTotalAmount',
        ),
      ),
    );
    return {
      name: text(path(li, 'SpecifiedTradeProduct', 'Name')) ?? '',
      qty: text(path(li, 'SpecifiedLineTradeDelivery', 'BilledQuantity')) ?? '1',
      price: text(
        path(li, 'SpecifiedLineTradeAgreement', 'NetPriceProductTradePrice', 'ChargeAmount'),
      ),
      amount,
    };
  });
  const adjustments = arr(s.SpecifiedTradeAllowanceCharge).map((ac) => {
    const isCharge = /true/i.test(text(path(ac, 'ChargeIndicator', 'Indicator')) ?? '');
    const amount = cents(text(obj(ac).ActualAmount));
    return {
      reason: text(obj(ac).Reason) ?? (isCharge ? 'charge' : 'allowance'),
      amount: amount === null ? null : isCharge ? amount : -amount,
    };
  });
  const vat = arr(s.ApplicableTradeTax).map((t) => ({
    rate: text(obj(t).RateApplicablePercent),
    base: cents(text(obj(t).BasisAmount)),
    tax: cents(text(obj(t).CalculatedAmount)),
  }));
  if (
    lines.some((l) => l.amount === null) ||
    adjustments.some((a) => a.amount === null) ||
    vat.some((v) => v.base === null || v.tax === null)
  )
    return null;
  const due = text(path(s, 'SpecifiedTradePaymentTerms', 'DueDateDateTime', 'DateTimeString'));
  const iban = text(
    path(s, 'SpecifiedTradeSettlementPaymentMeans', 'PayeePartyCreditorFinancialAccount', 'IBANID'),
  );
  return {
    number: text(path(ed, 'ID')) ?? '',
    issueDate: isoDate(text(path(ed, 'IssueDateTime', 'DateTimeString'))) ?? '',
    dueDate: isoDate(due),
    deliveryDate: isoDate(
      text(
        path(delivery, 'ActualDeliverySupplyChainEvent', 'OccurrenceDateTime', 'DateTimeString'),
      ),
    ),
    orderRef: text(path(agreement, 'BuyerOrderReferencedDocument', 'IssuerAssignedID')),
    buyerRef: text(path(agreement, 'BuyerReference')),
    currency,
    seller: ciiParty(path(agreement, 'SellerTradeParty')),
    buyer: ciiParty(path(agreement, 'BuyerTradeParty')),
    iban,
    lines: lines as Gold['lines'],
    adjustments: adjustments as Gold['adjustments'],
    vat: vat as Gold['vat'],
    lineTotal: cents(text(sum.LineTotalAmount)),
    net,
    tax,
    gross,
    prepaid: cents(text(sum.TotalPrepaidAmount)) ?? 0n,
    payable: payable ?? gross,
  };
}

function fromUbl(root: X): Omit<Gold, 'source'> | null {
  const type = text(root.InvoiceTypeCode);
  if (type === '381') return null;
  const currency = text(root.DocumentCurrencyCode) ?? '';
  const lmt = obj(first(root.LegalMonetaryTotal));
  const net = cents(text(lmt.TaxExclusiveAmount));
  const gross = cents(text(lmt.TaxInclusiveAmount));
  if (net === null || gross === null) return null;
  const taxTotals = arr(root.TaxTotal);
  const main =
    taxTotals.find((t) => obj(first(obj(t).TaxAmount))['@_currencyID'] === currency) ??
    taxTotals[0];
  const tax = cents(text(obj(main).TaxAmount)) ?? 0n;
  const lines = arr(root.InvoiceLine).map((li) => ({
    name: text(path(li, 'Item', 'Name')) ?? '',
    qty: text(obj(li).InvoicedQuantity) ?? '1',
    price: text(path(li, 'Price', 'PriceAmount')),
    amount: cents(text(obj(li).LineExtensionAmount)),
  }));
  const adjustments = arr(root.AllowanceCharge).map((ac) => {
    const isCharge = /true/i.test(text(obj(ac).ChargeIndicator) ?? '');
    const amount = cents(text(obj(ac).Amount));
    return {
      reason: text(obj(ac).AllowanceChargeReason) ?? (isCharge ? 'charge' : 'allowance'),
      amount: amount === null ? null : isCharge ? amount : -amount,
    };
  });
  const vat = arr(obj(main).TaxSubtotal).map((t) => ({
    rate: text(path(t, 'TaxCategory', 'Percent')),
    base: cents(text(obj(t).TaxableAmount)),
    tax: cents(text(obj(t).TaxAmount)),
  }));
  if (
    lines.some((l) => l.amount === null) ||
    adjustments.some((a) => a.amount === null) ||
    vat.some((v) => v.base === null || v.tax === null)
  )
    return null;
  const payable = cents(text(lmt.PayableAmount));
  return {
    number: text(root.ID) ?? '',
    issueDate: isoDate(text(root.IssueDate)) ?? '',
    dueDate: isoDate(text(root.DueDate) ?? text(path(root.PaymentMeans, 'PaymentDueDate'))),
    deliveryDate: isoDate(text(path(root.Delivery, 'ActualDeliveryDate'))),
    orderRef: text(path(root.OrderReference, 'ID')),
    buyerRef: text(root.BuyerReference),
    currency,
    seller: ublParty(root.AccountingSupplierParty),
    buyer: ublParty(root.AccountingCustomerParty),
    iban: text(path(root.PaymentMeans, 'PayeeFinancialAccount', 'ID')),
    lines: lines as Gold['lines'],
    adjustments: adjustments as Gold['adjustments'],
    vat: vat as Gold['vat'],
    lineTotal: cents(text(lmt.LineExtensionAmount)),
    net,
    tax,
    gross,
    prepaid: cents(text(lmt.PrepaidAmount)) ?? 0n,
    payable: payable ?? gross,
  };
}

// ---- seeded choices ---------------------------------------------------------------------------

/** A small deterministic PRNG (mulberry32) seeded from a string. */
export function rng(seed: string): () => number {
  let h = 1779033703 ^ seed.length;
  for (let i = 0; i < seed.length; i++) {
    h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

// ---- languages --------------------------------------------------------------------------------

export type Lang = 'de' | 'fr' | 'en' | 'nl' | 'es' | 'it';
export const LANGS: Lang[] = ['de', 'fr', 'en', 'nl', 'es', 'it'];

interface Vocab {
  title: string[];
  /** The title of a credit note (the credit-note trap prints it over invoice figures). */
  creditTitle: string;
  number: string[];
  date: string[];
  due: string[];
  delivery: string[];
  order: string[];
  customer: string[];
  billTo: string[];
  desc: string;
  qty: string;
  price: string;
  amount: string;
  pos: string;
  net: string[];
  /** `{r}` is the rate. */
  tax: string[];
  taxTotal: string[];
  gross: string[];
  payable: string[];
  prepaid: string;
  subtotal: string[];
  currencyNote: string[];
  vatId: string;
  page: string;
  thanks: string;
  months: string[];
  /** Numeric date separators this language prints. */
  seps: string[];
  numberStyles: NumberStyle[];
}

const VOCAB: Record<Lang, Vocab> = {
  de: {
    creditTitle: 'Gutschrift',
    title: ['Rechnung', 'RECHNUNG'],
    number: ['Rechnungsnummer', 'Rechnungs-Nr.', 'Rechnung Nr.', 'Belegnummer', 'Re.-Nr.'],
    date: ['Rechnungsdatum', 'Datum', 'Belegdatum'],
    due: ['Fällig am', 'Zahlbar bis', 'Fälligkeitsdatum'],
    delivery: ['Lieferdatum', 'Leistungsdatum'],
    order: ['Bestellnummer', 'Ihre Bestellung', 'Auftragsnummer'],
    customer: ['Kundennummer', 'Kunden-Nr.', 'Ihr Zeichen'],
    billTo: ['Rechnungsempfänger', 'Rechnungsadresse'],
    desc: 'Beschreibung',
    qty: 'Menge',
    price: 'Einzelpreis',
    amount: 'Betrag',
    pos: 'Pos.',
    net: ['Nettobetrag', 'Summe netto', 'Gesamtbetrag netto', 'Warenwert netto'],
    tax: ['MwSt. {r} %', 'USt. {r}%', 'Umsatzsteuer {r} %', 'zzgl. {r} % MwSt.'],
    taxTotal: ['MwSt. gesamt', 'Summe USt.', 'Umsatzsteuer gesamt'],
    gross: ['Bruttobetrag', 'Gesamtsumme', 'Rechnungsbetrag', 'Gesamtbetrag brutto', 'Endbetrag'],
    payable: ['Zahlbetrag', 'Zu zahlen', 'Offener Betrag'],
    prepaid: 'Bereits gezahlt',
    subtotal: ['Zwischensumme', 'Summe Positionen'],
    currencyNote: ['Alle Beträge in {c}', 'Währung: {c}'],
    vatId: 'USt-IdNr.',
    page: 'Seite 1 von 1',
    thanks: 'Vielen Dank für Ihren Auftrag.',
    months: [
      'Januar',
      'Februar',
      'März',
      'April',
      'Mai',
      'Juni',
      'Juli',
      'August',
      'September',
      'Oktober',
      'November',
      'Dezember',
    ],
    seps: ['.'],
    numberStyles: ['dot-comma', 'dot-comma', 'plain-comma', 'space-comma'],
  },
  fr: {
    creditTitle: 'Avoir',
    title: ['Facture', 'FACTURE'],
    number: ['N° de facture', 'Facture n°', 'Numéro de facture', 'N° facture'],
    date: ['Date de facture', "Date d'émission", 'Date', 'Date de la facture'],
    due: ["Date d'échéance", 'Échéance', 'Date limite de paiement'],
    delivery: ['Date de livraison', 'Date de prestation'],
    order: ['N° de commande', 'Référence commande', 'Votre commande'],
    customer: ['N° client', 'Code client', 'Référence client'],
    billTo: ['Adresse de facturation', 'Facturé à', 'Client'],
    desc: 'Désignation',
    qty: 'Quantité',
    price: 'Prix unitaire HT',
    amount: 'Montant HT',
    pos: 'Réf.',
    net: ['Total HT', 'Montant HT', 'Total hors taxes'],
    tax: ['TVA {r} %', 'TVA à {r} %', 'Montant TVA {r} %'],
    taxTotal: ['Total TVA', 'Montant TVA'],
    gross: ['Total TTC', 'Montant TTC', 'Total toutes taxes comprises'],
    payable: ['Net à payer', 'Reste à payer', 'Montant à payer'],
    prepaid: 'Acompte versé',
    subtotal: ['Sous-total', 'Total lignes'],
    currencyNote: ['Montants exprimés en {c}', 'Devise : {c}'],
    vatId: 'N° TVA intracom.',
    page: 'Page 1/1',
    thanks: 'Merci de votre confiance.',
    months: [
      'janvier',
      'février',
      'mars',
      'avril',
      'mai',
      'juin',
      'juillet',
      'août',
      'septembre',
      'octobre',
      'novembre',
      'décembre',
    ],
    seps: ['/', '.'],
    numberStyles: ['space-comma', 'space-comma', 'plain-comma', 'dot-comma'],
  },
  en: {
    creditTitle: 'Credit note',
    title: ['Invoice', 'INVOICE', 'Tax Invoice'],
    number: ['Invoice number', 'Invoice No.', 'Invoice #', 'Invoice no:', 'Invoice ID'],
    date: ['Invoice date', 'Date of issue', 'Date', 'Issue date'],
    due: ['Due date', 'Payment due', 'Due by'],
    delivery: ['Delivery date', 'Date of supply', 'Service date'],
    order: ['Purchase order', 'PO Number', 'Order No.', 'Your reference'],
    customer: ['Customer No.', 'Account number', 'Customer ID'],
    billTo: ['Bill to', 'Invoice to', 'Billed to', 'Customer'],
    desc: 'Description',
    qty: 'Qty',
    price: 'Unit price',
    amount: 'Amount',
    pos: 'Item',
    net: ['Subtotal', 'Net amount', 'Total excl. VAT', 'Total net'],
    tax: ['VAT {r}%', 'VAT @ {r}%', 'Tax {r}%', 'VAT ({r}%)'],
    taxTotal: ['Total VAT', 'VAT amount', 'Total tax'],
    gross: ['Total', 'Total incl. VAT', 'Invoice total', 'Gross amount', 'Total amount'],
    payable: ['Amount due', 'Balance due', 'Total due'],
    prepaid: 'Paid in advance',
    subtotal: ['Lines total', 'Sum of lines'],
    currencyNote: ['All amounts in {c}', 'Currency: {c}'],
    vatId: 'VAT No.',
    page: 'Page 1 of 1',
    thanks: 'Thank you for your business.',
    months: [
      'January',
      'February',
      'March',
      'April',
      'May',
      'June',
      'July',
      'August',
      'September',
      'October',
      'November',
      'December',
    ],
    seps: ['/'],
    numberStyles: ['comma-dot', 'comma-dot', 'plain-dot'],
  },
  nl: {
    creditTitle: 'Creditnota',
    title: ['Factuur', 'FACTUUR'],
    number: ['Factuurnummer', 'Factuurnr.', 'Factuur nr.'],
    date: ['Factuurdatum', 'Datum'],
    due: ['Vervaldatum', 'Uiterste betaaldatum'],
    delivery: ['Leverdatum', 'Leveringsdatum'],
    order: ['Ordernummer', 'Uw referentie', 'Bestelnummer'],
    customer: ['Klantnummer', 'Debiteurnummer'],
    billTo: ['Factuuradres', 'T.a.v.'],
    desc: 'Omschrijving',
    qty: 'Aantal',
    price: 'Prijs',
    amount: 'Bedrag',
    pos: 'Nr.',
    net: ['Subtotaal', 'Totaal excl. btw', 'Bedrag excl. btw'],
    tax: ['Btw {r}%', 'BTW {r}%', 'Btw-bedrag {r}%'],
    taxTotal: ['Totaal btw', 'Btw-bedrag'],
    gross: ['Totaal incl. btw', 'Totaal', 'Totaalbedrag', 'Factuurbedrag'],
    payable: ['Te betalen', 'Nog te betalen'],
    prepaid: 'Reeds betaald',
    subtotal: ['Totaal regels'],
    currencyNote: ['Bedragen in {c}', 'Valuta: {c}'],
    vatId: 'Btw-nummer',
    page: 'Pagina 1 van 1',
    thanks: 'Bedankt voor uw bestelling.',
    months: [
      'januari',
      'februari',
      'maart',
      'april',
      'mei',
      'juni',
      'juli',
      'augustus',
      'september',
      'oktober',
      'november',
      'december',
    ],
    seps: ['-', '-', '/'],
    numberStyles: ['dot-comma', 'plain-comma'],
  },
  es: {
    creditTitle: 'Factura rectificativa',
    title: ['Factura', 'FACTURA'],
    number: ['Número de factura', 'Nº de factura', 'Factura nº', 'Factura n.º', 'Nº Factura'],
    date: ['Fecha', 'Fecha de factura', 'Fecha de emisión', 'Fecha factura'],
    due: ['Vencimiento', 'Fecha de vencimiento'],
    delivery: ['Fecha de entrega', 'Fecha de servicio'],
    order: ['Número de pedido', 'Pedido', 'Su referencia'],
    customer: ['Nº cliente', 'Código de cliente'],
    billTo: ['Facturar a', 'Cliente', 'Datos del cliente'],
    desc: 'Descripción',
    qty: 'Cantidad',
    price: 'Precio unitario',
    amount: 'Importe',
    pos: 'Ref.',
    net: ['Base imponible', 'Subtotal', 'Importe neto', 'Total sin IVA'],
    tax: ['IVA {r}%', 'IVA ({r} %)', 'Cuota IVA {r}%'],
    taxTotal: ['Total IVA', 'Cuota total IVA'],
    gross: ['Total', 'Total factura', 'Importe total', 'Total con IVA'],
    payable: ['Total a pagar', 'Importe a pagar'],
    prepaid: 'Anticipo',
    subtotal: ['Suma de líneas', 'Total líneas'],
    currencyNote: ['Importes en {c}', 'Moneda: {c}'],
    vatId: 'NIF/IVA',
    page: 'Página 1 de 1',
    thanks: 'Gracias por su confianza.',
    months: [
      'enero',
      'febrero',
      'marzo',
      'abril',
      'mayo',
      'junio',
      'julio',
      'agosto',
      'septiembre',
      'octubre',
      'noviembre',
      'diciembre',
    ],
    seps: ['/', '-'],
    numberStyles: ['dot-comma', 'plain-comma'],
  },
  it: {
    creditTitle: 'Nota di credito',
    title: ['Fattura', 'FATTURA'],
    number: ['Numero fattura', 'Fattura n.', 'Fattura N°', 'N. fattura', 'Numero documento'],
    date: ['Data', 'Data fattura', 'Data documento', 'Data emissione'],
    due: ['Scadenza', 'Data scadenza', 'Scadenza pagamento'],
    delivery: ['Data consegna', 'Data DDT'],
    order: ['Ordine n.', 'Rif. ordine', 'Vs. ordine'],
    customer: ['Codice cliente', 'Cod. cliente'],
    billTo: ['Destinatario', 'Spett.le', 'Cliente'],
    desc: 'Descrizione',
    qty: 'Quantità',
    price: 'Prezzo unitario',
    amount: 'Importo',
    pos: 'Cod.',
    net: ['Imponibile', 'Totale imponibile', 'Totale netto'],
    tax: ['IVA {r}%', 'IVA al {r}%', 'Imposta {r}%'],
    taxTotal: ['Totale IVA', 'Totale imposta'],
    gross: ['Totale', 'Totale fattura', 'Totale documento', 'Importo totale'],
    payable: ['Netto a pagare', 'Totale da pagare'],
    prepaid: 'Acconto',
    subtotal: ['Totale righe'],
    currencyNote: ['Importi in {c}', 'Valuta: {c}'],
    vatId: 'P. IVA',
    page: 'Pagina 1 di 1',
    thanks: 'Grazie per la preferenza.',
    months: [
      'gennaio',
      'febbraio',
      'marzo',
      'aprile',
      'maggio',
      'giugno',
      'luglio',
      'agosto',
      'settembre',
      'ottobre',
      'novembre',
      'dicembre',
    ],
    seps: ['/', '.'],
    numberStyles: ['dot-comma', 'plain-comma'],
  },
};

// ---- formats ----------------------------------------------------------------------------------

export type NumberStyle = 'dot-comma' | 'space-comma' | 'comma-dot' | 'plain-comma' | 'plain-dot';
export type CurrencyStyle =
  'symbol-after' | 'symbol-before' | 'code-after' | 'code-before' | 'note';
export type DateStyle = 'numeric' | 'words' | 'iso';

const SYMBOLS: Record<string, string> = { EUR: '€', GBP: '£', USD: '$' };

export function formatNumber(c: bigint, style: NumberStyle): string {
  const neg = c < 0n;
  const a = neg ? -c : c;
  const int = (a / 100n).toString();
  const frac = (a % 100n).toString().padStart(2, '0');
  const group = (sep: string) => int.replace(/\B(?=(\d{3})+(?!\d))/g, sep);
  const body =
    style === 'dot-comma'
      ? `${group('.')},${frac}`
      : style === 'space-comma'
        ? `${group(' ')},${frac}`
        : style === 'comma-dot'
          ? `${group(',')}.${frac}`
          : style === 'plain-comma'
            ? `${int},${frac}`
            : `${int}.${frac}`;
  return neg ? `-${body}` : body;
}

export function formatMoney(
  c: bigint,
  currency: string,
  style: NumberStyle,
  cur: CurrencyStyle,
): string {
  const n = formatNumber(c, style);
  const sym = SYMBOLS[currency];
  switch (cur) {
    case 'symbol-after':
      return sym ? `${n} ${sym}` : `${n} ${currency}`;
    case 'symbol-before':
      return sym ? `${sym} ${n}` : `${currency} ${n}`;
    case 'code-after':
      return `${n} ${currency}`;
    case 'code-before':
      return `${currency} ${n}`;
    default:
      return n;
  }
}

export function formatDate(iso: string, lang: Lang, style: DateStyle, sep: string): string {
  const [y, m, d] = iso.split('-');
  if (style === 'iso') return iso;
  if (style === 'numeric') {
    if (lang === 'en' && sep === 'us') return `${m}/${d}/${y}`;
    return `${d}${sep}${m}${sep}${y}`;
  }
  const month = VOCAB[lang].months[Number(m) - 1]!;
  const day = String(Number(d));
  switch (lang) {
    case 'de':
      return `${day}. ${month} ${y}`;
    case 'en':
      return sep === 'us' ? `${month} ${day}, ${y}` : `${day} ${month} ${y}`;
    case 'es':
      return `${day} de ${month} de ${y}`;
    default:
      return `${day} ${month} ${y}`;
  }
}

/** Quantities as printed: "2", "1,5" / "1.5" (never grouped). */
function formatQty(q: string, style: NumberStyle): string {
  const v = q.replace(/\.?0+$/, (z) => (q.includes('.') ? '' : z));
  return style.endsWith('comma') ? v.replace('.', ',') : v;
}
function formatPrice(p: string | null, style: NumberStyle): string {
  if (p === null) return '';
  const c = cents(p);
  if (c !== null) return formatNumber(c, style);
  return style.endsWith('comma') ? p.replace('.', ',') : p;
}
function formatRate(r: string | null, style: NumberStyle): string {
  if (r === null) return '0';
  const v = r.includes('.') ? r.replace(/0+$/, '').replace(/\.$/, '') : r;
  return style.endsWith('comma') ? v.replace('.', ',') : v;
}

// ---- the page model ---------------------------------------------------------------------------

export type Layout = 'blocks-right' | 'header-row' | 'next-line' | 'inline-title' | 'boxed-totals';
export const LAYOUTS: Layout[] = [
  'blocks-right',
  'header-row',
  'next-line',
  'inline-title',
  'boxed-totals',
];
export type Trap = 'arithmetic' | 'two-numbers' | 'no-total' | 'credit-note';

export interface Variant {
  lang: Lang;
  layout: Layout;
  numberStyle: NumberStyle;
  currencyStyle: CurrencyStyle;
  dateStyle: DateStyle;
  dateSep: string;
  font: 'Helvetica' | 'Times' | 'Courier';
  trap: Trap | null;
  /** The set's seed (`--seed`), when one is given: it also varies the labels picked. */
  seed?: string;
}

/** The variant for (file, index): seeded by the name alone, never by what the reader does. */
export function chooseVariant(source: string, index: number, trap: Trap | null = null): Variant {
  const r = rng(`${source}#${index}`);
  // Languages rotate per index from a seeded start, so one file never repeats a language.
  const start = Math.floor(rng(source)() * LANGS.length);
  const lang = LANGS[(start + index * 2) % LANGS.length]!;
  const v = VOCAB[lang];
  const layout =
    LAYOUTS[(Math.floor(rng(`${source}!`)() * LAYOUTS.length) + index) % LAYOUTS.length]!;
  const numberStyle = pick(r, v.numberStyles);
  const currencyStyle = pick<CurrencyStyle>(r, [
    'symbol-after',
    'symbol-after',
    'symbol-before',
    'code-after',
    'code-before',
    'note',
  ]);
  const dateStyle = pick<DateStyle>(r, ['numeric', 'numeric', 'words', 'iso']);
  let dateSep = pick(r, v.seps);
  if (lang === 'en') dateSep = pick(r, ['/', 'uk-words', 'us']);
  const font = pick(r, ['Helvetica', 'Helvetica', 'Times', 'Courier'] as const);
  return { lang, layout, numberStyle, currencyStyle, dateStyle, dateSep, font, trap };
}

interface Cell {
  text: string;
  x: number;
  align?: 'left' | 'right';
  bold?: boolean;
  size?: number;
}
/** One printed row: its cells at a baseline (y grows downwards from the top margin). */
interface Row {
  y: number;
  cells: Cell[];
}

export interface RenderedInvoice {
  name: string;
  variant: Variant;
  rows: Row[];
  expected: Record<string, string>;
}

const LEFT = 50;
const RIGHT = 545;

/** Lays one invoice out as rows of cells in the variant's language, formats and layout. */
export function layoutInvoice(g: Gold, variant: Variant): RenderedInvoice {
  const r = rng(
    `${variant.seed ? `${variant.seed}:` : ''}${g.source}|${variant.lang}|${variant.layout}|${variant.trap ?? ''}`,
  );
  const v = VOCAB[variant.lang];
  const { numberStyle: ns } = variant;
  const cur: CurrencyStyle = variant.currencyStyle;
  const money = (c: bigint) => formatMoney(c, g.currency, ns, cur);
  const bare = (c: bigint) => formatNumber(c, ns);
  const date = (iso: string) =>
    variant.dateStyle === 'iso'
      ? iso
      : variant.lang === 'en'
        ? variant.dateSep === 'uk-words'
          ? formatDate(iso, 'en', 'words', '')
          : variant.dateSep === 'us'
            ? formatDate(iso, 'en', variant.dateStyle, 'us')
            : formatDate(iso, 'en', variant.dateStyle === 'words' ? 'words' : 'numeric', '/')
        : formatDate(iso, variant.lang, variant.dateStyle, variant.dateSep);
  const rows: Row[] = [];
  let y = 60;
  const row = (cells: Cell[], gap = 14) => {
    rows.push({ y, cells });
    y += gap;
  };

  // Sender: name large, address, then the DIN-style one-line sender above the address window.
  const s = g.seller;
  const addr = (p: Party) =>
    [p.street, [p.postcode, p.city].filter(Boolean).join(' '), p.country].filter(
      (x): x is string => !!x && x.trim() !== '',
    );
  row([{ text: g.seller.name, x: LEFT, bold: true, size: 14 }], 18);
  for (const l of addr(s)) row([{ text: l, x: LEFT }], 12);
  if (s.vatId) row([{ text: `${v.vatId} ${s.vatId}`, x: LEFT }], 12);
  y += 16;

  // Invoice meta: what to print, in order.
  const number = variant.trap === 'two-numbers' ? `${g.number}` : g.number;
  const meta: [string, string][] = [
    [pick(r, v.number), number],
    [pick(r, v.date), date(g.issueDate)],
  ];
  if (g.buyerRef && r() < 0.5) meta.push([pick(r, v.customer), g.buyerRef]);
  if (g.orderRef) meta.push([pick(r, v.order), g.orderRef]);
  if (g.deliveryDate && r() < 0.6) meta.push([pick(r, v.delivery), date(g.deliveryDate)]);
  if (g.dueDate && g.dueDate >= g.issueDate) meta.push([pick(r, v.due), date(g.dueDate)]);
  const colon = r() < 0.6 ? ':' : '';
  const title = variant.trap === 'credit-note' ? v.creditTitle : pick(r, v.title);

  const buyerBlock = () => {
    const b = g.buyer;
    const marker = r() < 0.7 ? pick(r, v.billTo) : null;
    const sender = [s.name, s.street, [s.postcode, s.city].filter(Boolean).join(' ')]
      .filter(Boolean)
      .join(' · ');
    const out: string[] = [];
    if (r() < 0.5) out.push(sender);
    if (marker) out.push(`${marker}:`);
    if (b.name) out.push(b.name);
    out.push(...addr(b));
    return out;
  };

  const layout = variant.layout;
  if (layout === 'blocks-right' || layout === 'next-line') {
    const left = buyerBlock();
    const right: Cell[][] = [];
    for (const [label, value] of meta) {
      if (layout === 'next-line') {
        right.push([{ text: label, x: 360, bold: true }]);
        right.push([{ text: value, x: 360 }]);
      } else
        right.push([
          { text: `${label}${colon}`, x: 340 },
          { text: value, x: RIGHT, align: 'right' },
        ]);
    }
    const n = Math.max(left.length, right.length);
    for (let i = 0; i < n; i++) {
      const cells: Cell[] = [];
      if (left[i])
        cells.push({
          text: left[i]!,
          x: LEFT,
          size: i === 0 && left[i]!.includes('·') ? 7 : undefined,
        });
      if (right[i]) cells.push(...right[i]!);
      row(cells, 13);
    }
    y += 16;
    row([{ text: title, x: LEFT, bold: true, size: 16 }], 26);
  } else if (layout === 'header-row') {
    for (const l of buyerBlock()) row([{ text: l, x: LEFT }], 13);
    y += 16;
    row([{ text: title, x: LEFT, bold: true, size: 16 }], 24);
    const shown = meta.slice(0, 4);
    const w = (RIGHT - LEFT) / shown.length;
    row(
      shown.map(([label], i) => ({ text: label, x: LEFT + i * w, bold: true })),
      13,
    );
    row(
      shown.map(([, value], i) => ({ text: value, x: LEFT + i * w })),
      24,
    );
    for (const [label, value] of meta.slice(4))
      row([{ text: `${label}${colon} ${value}`, x: LEFT }], 13);
  } else {
    // inline-title / boxed-totals: the title carries number and date ("Rechnung Nr. X vom D").
    for (const l of buyerBlock()) row([{ text: l, x: LEFT }], 13);
    y += 16;
    const [numLabel, numValue] = meta[0]!;
    const [dateLabel, dateValue] = meta[1]!;
    if (layout === 'inline-title') {
      row([{ text: title, x: LEFT, bold: true, size: 16 }], 22);
      row(
        [
          { text: `${numLabel}${colon} ${numValue}`, x: LEFT },
          { text: `${dateLabel}${colon} ${dateValue}`, x: 330 },
        ],
        14,
      );
    } else {
      if (variant.trap === 'credit-note') row([{ text: title, x: LEFT, bold: true, size: 16 }], 22);
      row([{ text: `${numLabel}${colon} ${numValue}`, x: LEFT, bold: true, size: 12 }], 16);
      row([{ text: `${dateLabel}${colon} ${dateValue}`, x: LEFT }], 14);
    }
    for (const [label, value] of meta.slice(2))
      row([{ text: `${label}${colon} ${value}`, x: LEFT }], 13);
    y += 10;
  }
  if (cur === 'note')
    row([{ text: pick(r, v.currencyNote).replace('{c}', g.currency), x: LEFT }], 18);

  // Lines.
  const X = { pos: LEFT, desc: LEFT + 30, qty: 330, price: 430, amount: RIGHT };
  row(
    [
      { text: v.pos, x: X.pos, bold: true },
      { text: v.desc, x: X.desc, bold: true },
      { text: v.qty, x: X.qty, align: 'right', bold: true },
      { text: v.price, x: X.price, align: 'right', bold: true },
      { text: v.amount, x: X.amount, align: 'right', bold: true },
    ],
    15,
  );
  const lines = g.lines.slice(0, 25);
  lines.forEach((l, i) => {
    row(
      [
        { text: String(i + 1), x: X.pos },
        { text: clip(l.name || '-', 44), x: X.desc },
        { text: formatQty(l.qty, ns), x: X.qty, align: 'right' },
        { text: formatPrice(l.price, ns), x: X.price, align: 'right' },
        { text: bare(l.amount), x: X.amount, align: 'right' },
      ],
      13,
    );
  });
  y += 8;

  // Totals.
  const vat = g.vat.length > 0 ? g.vat : [{ rate: null, base: g.net, tax: g.tax }];
  let tax = g.tax;
  if (variant.trap === 'arithmetic') tax = g.tax + 100n;
  // Totals, each with its role: what a boxed table shows in its head row and what it leaves
  // above as plain rows (subtotal, allowances and charges, the per-rate breakdown).
  type Role = 'above' | 'net' | 'tax' | 'gross' | 'prepaid' | 'payable';
  const totals: [string, string, Role][] = [];
  if (g.adjustments.length > 0 && g.lineTotal !== null) {
    totals.push([pick(r, v.subtotal), money(g.lineTotal), 'above']);
    for (const a of g.adjustments) totals.push([clip(a.reason, 30), money(a.amount), 'above']);
  }
  totals.push([pick(r, v.net), money(g.net), 'net']);
  const taxLabel = pick(r, v.tax);
  const on = { de: 'auf', fr: 'sur', en: 'on', nl: 'over', es: 'sobre', it: 'su' }[variant.lang];
  for (const t of vat) {
    const label = taxLabel.replace('{r}', formatRate(t.rate, ns));
    if (vat.length === 1) totals.push([label, money(tax), 'tax']);
    else totals.push([`${label} ${on} ${bare(t.base)}`, money(t.tax), 'above']);
  }
  if (vat.length > 1) totals.push([pick(r, v.taxTotal), money(tax), 'tax']);
  if (variant.trap !== 'no-total') totals.push([pick(r, v.gross), money(g.gross), 'gross']);
  if (g.prepaid !== 0n) {
    totals.push([v.prepaid, money(-g.prepaid), 'prepaid']);
    totals.push([pick(r, v.payable), money(g.payable), 'payable']);
  } else if (r() < 0.3 && variant.trap !== 'no-total')
    totals.push([pick(r, v.payable), money(g.payable), 'payable']);

  const plain = (list: [string, string, Role][]) => {
    for (const [label, value] of list)
      row(
        [
          {
            text: `${label}${layout === 'next-line' ? '' : colon}`,
            x: 330,
            bold: label === list[list.length - 1]![0],
          },
          { text: value, x: RIGHT, align: 'right' },
        ],
        14,
      );
  };
  if (layout === 'boxed-totals') {
    // The breakdown above, then a totals table: labels as a head row, values in the row below.
    plain(totals.filter(([, , role]) => role === 'above'));
    y += 6;
    const core = totals.filter(([, , role]) => role !== 'above' && role !== 'prepaid');
    const w = (RIGHT - LEFT) / core.length;
    row(
      core.map(([l], i) => ({ text: l, x: LEFT + (i + 1) * w - 4, align: 'right', bold: true })),
      13,
    );
    row(
      core.map(([, val], i) => ({ text: val, x: LEFT + (i + 1) * w - 4, align: 'right' })),
      18,
    );
  } else plain(totals);
  y += 20;

  // Footer: payment details, the seller again, the page number.
  if (g.iban) row([{ text: `IBAN: ${g.iban}`, x: LEFT }], 12);
  if (variant.trap === 'two-numbers')
    row([{ text: `${meta[0]![0]}${colon} ${otherNumber(g.number)}`, x: LEFT }], 12);
  row([{ text: v.thanks, x: LEFT }], 12);
  row(
    [
      { text: [s.name, s.city].filter(Boolean).join(', '), x: LEFT, size: 7 },
      { text: v.page, x: RIGHT, align: 'right', size: 7 },
    ],
    12,
  );

  const name = `${stem(g.source)}--${variant.lang}-${variant.layout}${variant.trap ? `-trap-${variant.trap}` : ''}.pdf`;
  const d = (c: bigint) => {
    const neg = c < 0n;
    const a = neg ? -c : c;
    return `${neg ? '-' : ''}${a / 100n}.${(a % 100n).toString().padStart(2, '0')}`;
  };
  const expected: Record<string, string> = {
    issuer: g.seller.name,
    invoice_number: g.number,
    date: g.issueDate,
    currency: g.currency,
    amount: d(g.gross),
    amount_untaxed: d(g.net),
    amount_tax: d(g.tax),
    source: g.source,
    language: variant.lang,
    layout: variant.layout,
    outcome: variant.trap ? 'human_review' : 'posted',
  };
  if (!variant.trap) delete expected.outcome;
  return { name, variant, rows, expected };
}

const clip = (s: string, n: number) =>
  (s.length > n ? `${s.slice(0, n - 1)}…` : s).replace(/\s+/g, ' ');
const stem = (f: string) => basename(f, '.xml').replace(/[^A-Za-z0-9._-]+/g, '_');
/** A second, different invoice number of the same shape (the two-numbers trap). */
function otherNumber(n: string): string {
  const m = /(\d)(\D*)$/.exec(n);
  if (!m) return `${n}-2`;
  const i = m.index;
  return `${n.slice(0, i)}${(Number(m[1]) + 1) % 10}${n.slice(i + 1)}`;
}

// ---- drawing ----------------------------------------------------------------------------------

/** Characters WinAnsi cannot encode become '?' (the standard fonts only carry WinAnsi). */
function encodable(font: PDFFont, s: string): string {
  return [...s]
    .map((ch) => {
      try {
        font.encodeText(ch);
        return ch;
      } catch {
        return '?';
      }
    })
    .join('');
}

export async function renderPdf(inv: RenderedInvoice): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(inv.name);
  pdf.setCreationDate(new Date('2025-01-01T00:00:00Z'));
  pdf.setModificationDate(new Date('2025-01-01T00:00:00Z'));
  const family = inv.variant.font;
  const regular = await pdf.embedFont(
    family === 'Times'
      ? StandardFonts.TimesRoman
      : family === 'Courier'
        ? StandardFonts.Courier
        : StandardFonts.Helvetica,
  );
  const bold = await pdf.embedFont(
    family === 'Times'
      ? StandardFonts.TimesRomanBold
      : family === 'Courier'
        ? StandardFonts.CourierBold
        : StandardFonts.HelveticaBold,
  );
  const H = 842;
  let page: PDFPage = pdf.addPage([595, H]);
  let offset = 0;
  for (const row of inv.rows) {
    if (row.y - offset > H - 50) {
      page = pdf.addPage([595, H]);
      offset = row.y - 60;
    }
    for (const c of row.cells) {
      const font = c.bold ? bold : regular;
      const size = c.size ?? (family === 'Courier' ? 8 : 9);
      const t = encodable(font, c.text);
      const w = font.widthOfTextAtSize(t, size);
      const x = c.align === 'right' ? c.x - w : c.x;
      page.drawText(t, { x, y: H - (row.y - offset), size, font });
    }
  }
  return pdf.save({ useObjectStreams: false });
}

// ---- the command ------------------------------------------------------------------------------

export const DEFAULT_SRC = resolve(__dirname, '../../../shared/datasets/einvoices');
const FOLDERS = ['en16931-cii', 'en16931-ubl', 'xrechnung', 'peppol'];

const SELLERS = [
  'Nordwind Handelsgesellschaft mbH',
  'Bergmann & Söhne KG',
  'Hartmann Bürotechnik',
  'Atelier Lumière SARL',
  'Transports Girard et Fils',
  'Van Dijk Installatietechniek B.V.',
  'Brightline Consulting Ltd',
  'Rossi Forniture S.r.l.',
  'Suministros Levante S.L.',
  'Kessler Maschinenbau AG',
  'Oakridge Office Supplies',
  'Müller Elektrotechnik e.K.',
];
const BUYERS = [
  'Stadtwerke Musterstadt',
  'Café Central OHG',
  'Bureau Vallée Lyon',
  'Meyer Logistik GmbH',
  'De Groot Bouw',
  'Harbour Analytics Ltd',
];
const STREETS = [
  'Industriestraße 12',
  'Rue des Lilas 8',
  'Keizersgracht 221',
  'Via Roma 45',
  'High Street 17',
];
const CITIES: [string, string][] = [
  ['10115', 'Berlin'],
  ['69002', 'Lyon'],
  ['1017 EB', 'Amsterdam'],
  ['20121', 'Milano'],
  ['28001', 'Madrid'],
];

/**
 * The XRechnung test files print placeholders ("[Seller name]", "[Buyer city]") and a few
 * number placeholders without a digit ("Rechnungsnummer"); no real invoice does. Those fields
 * get a seeded realistic value (the same for every variant of the invoice), and the gold
 * follows: every other field stays as the XML has it.
 */
export function realize(g: Gold): Gold {
  const r = rng(`realize|${g.number}|${g.issueDate}|${g.gross}`);
  const placeholder = (v: string | null) => v !== null && /\[[^\]]*\]/.test(v);
  const party = (p: Party, names: string[]): Party => {
    const [postcode, city] = pick(r, CITIES);
    return {
      name: placeholder(p.name) || !p.name ? pick(r, names) : p.name,
      street: placeholder(p.street) ? pick(r, STREETS) : p.street,
      postcode: placeholder(p.city) || placeholder(p.postcode) ? postcode : p.postcode,
      city: placeholder(p.city) ? city : p.city,
      country: p.country,
      vatId: p.vatId,
    };
  };
  const number = /\d/.test(g.number)
    ? g.number
    : `${pick(r, ['RE', 'R', 'INV', 'F'])}-${g.issueDate.slice(0, 4)}-${String(Math.floor(r() * 9000) + 1000)}`;
  return { ...g, number, seller: party(g.seller, SELLERS), buyer: party(g.buyer, BUYERS) };
}

/** Every usable invoice under the source folders, one per (number, issue date, gross). */
export function loadGolds(src: string): Gold[] {
  const seen = new Set<string>();
  const out: Gold[] = [];
  for (const folder of FOLDERS) {
    let files: string[];
    try {
      files = readdirSync(join(src, folder))
        .filter((f) => f.endsWith('.xml'))
        .sort();
    } catch {
      continue;
    }
    for (const f of files) {
      const g = parseInvoiceXml(readFileSync(join(src, folder, f), 'utf8'), `${folder}/${f}`);
      if (!g) continue;
      // XRechnung ships most examples in both syntaxes: one invoice, rendered once.
      const key = `${g.number}|${g.issueDate}|${g.gross}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(realize(g));
    }
  }
  return out;
}

export async function renderSet(
  src: string,
  out: string,
  variants = 3,
  /** Mixed into every variant's seed: another seed draws another unseen set from the XMLs. */
  seed = '',
): Promise<{ files: number; golds: number; traps: number; real: number }> {
  const golds = loadGolds(src);
  mkdirSync(out, { recursive: true });
  const expected: Record<string, Record<string, string>> = {};
  let traps = 0;
  for (const [gi, g] of golds.entries()) {
    const plans: Variant[] = [];
    const key = seed ? `${seed}:${g.source}` : g.source;
    for (let i = 0; i < variants; i++) plans.push({ ...chooseVariant(key, i), seed });
    // Every fifth invoice also gets a trap variant (rotating the kind).
    if (gi % 5 === 3) {
      const kinds: Trap[] = ['arithmetic', 'two-numbers', 'no-total', 'credit-note'];
      plans.push({ ...chooseVariant(key, variants, kinds[traps % kinds.length]!), seed });
      traps++;
    }
    for (const v of plans) {
      const inv = layoutInvoice(g, v);
      writeFileSync(join(out, inv.name), await renderPdf(inv));
      expected[inv.name] = inv.expected;
    }
  }
  const real = await addRealPdfs(src, out, expected);
  writeFileSync(join(out, 'expected.json'), JSON.stringify(expected, null, 2) + '\n');
  return { files: Object.keys(expected).length, golds: golds.length, traps, real };
}

/** The XML files embedded in a PDF (a Factur-X / ZUGFeRD attachment), by name. */
export async function embeddedFiles(bytes: Uint8Array): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const names = pdf.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  const files = names?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict);
  const list = files?.lookupMaybe(PDFName.of('Names'), PDFArray);
  if (!list) return out;
  for (let i = 0; i + 1 < list.size(); i += 2) {
    const key = list.lookup(i);
    const name =
      key instanceof PDFString || key instanceof PDFHexString ? key.decodeText() : `file${i}`;
    const spec = list.lookupMaybe(i + 1, PDFDict);
    const stream = spec?.lookupMaybe(PDFName.of('EF'), PDFDict)?.lookup(PDFName.of('F'));
    if (stream instanceof PDFRawStream) out.set(name, decodePDFRawStream(stream).decode());
  }
  return out;
}

/**
 * Real Factur-X PDFs under `<src>/facturx-pdf`, copied as they are ("real--<name>.pdf") with
 * their gold from the XML attached to each: the visible text of a real invoice, same scorer.
 */
async function addRealPdfs(
  src: string,
  out: string,
  expected: Record<string, Record<string, string>>,
): Promise<number> {
  let dir: string[];
  try {
    dir = readdirSync(join(src, 'facturx-pdf')).filter((f) => f.toLowerCase().endsWith('.pdf'));
  } catch {
    return 0;
  }
  let n = 0;
  for (const f of dir.sort()) {
    const bytes = readFileSync(join(src, 'facturx-pdf', f));
    const xml = [...(await embeddedFiles(bytes)).entries()].find(([k]) => /\.xml$/i.test(k));
    const g = xml
      ? parseInvoiceXml(Buffer.from(xml[1]).toString('utf8'), `facturx-pdf/${f}`)
      : null;
    if (!g) continue;
    const name = `real--${stem(basename(f, '.pdf'))}.pdf`;
    writeFileSync(join(out, name), bytes);
    const d = (c: bigint) =>
      `${c < 0n ? '-' : ''}${(c < 0n ? -c : c) / 100n}.${((c < 0n ? -c : c) % 100n).toString().padStart(2, '0')}`;
    expected[name] = {
      issuer: g.seller.name,
      invoice_number: g.number,
      date: g.issueDate,
      currency: g.currency,
      amount: d(g.gross),
      amount_untaxed: d(g.net),
      amount_tax: d(g.tax),
      source: g.source,
      layout: 'real',
    };
    n++;
  }
  return n;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (require.main === module) {
  const src = arg('src') ?? DEFAULT_SRC;
  const out = resolve(arg('out') ?? '/tmp/rendered-invoices');
  const repo = resolve(__dirname, '../..');
  if (out === repo || out.startsWith(`${repo}/`)) {
    console.error(`--out ${out} is inside the repository; rendered PDFs stay outside it`);
    process.exit(2);
  }
  renderSet(src, out, Number(arg('variants') ?? 3), arg('seed') ?? '')
    .then((r) =>
      console.log(
        `${r.files} PDFs (${r.golds} invoices rendered, ${r.traps} traps, ${r.real} real Factur-X) in ${out}`,
      ),
    )
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
