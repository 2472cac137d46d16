/**
 * The gold of the unseen invoice set: the fields of an EN 16931 invoice (CII or UBL), read from
 * its XML with money as integer hundredths (`Gold`, `Party`, `cents`, `parseInvoiceXml`).
 */

import { XMLParser } from 'fast-xml-parser';

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
