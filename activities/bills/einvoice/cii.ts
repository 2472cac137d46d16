import type { Party, StructuredInvoice } from '../../../workflows/bills/structured-invoice';
import { profileOf } from './profile';
import { all, at, attr, decimal, text, textOf, type XmlNode } from './xml';

/**
 * UN/CEFACT Cross Industry Invoice into the EN 16931 model: D16B `CrossIndustryInvoice`
 * (ZUGFeRD 2.x, Factur-X in every profile, XRechnung CII) and ZUGFeRD 1.x
 * `CrossIndustryDocument` (its older names for the same business terms).
 */
export function readCii(root: XmlNode, zugferd1: boolean): StructuredInvoice {
  const names = zugferd1 ? ZF1 : D16B;
  const context = at(root, names.context);
  const header = at(root, names.header);
  const tx = at(root, names.transaction);
  const agreement = at(tx, names.agreement);
  const settlement = at(tx, names.settlement);
  const currency = text(settlement, 'InvoiceCurrencyCode');
  const sums = at(settlement, names.summation);
  const specification = text(context, 'GuidelineSpecifiedDocumentContextParameter', 'ID');

  const lines = all(tx, 'IncludedSupplyChainTradeLineItem').map((li) => {
    const lineSettlement = at(li, names.lineSettlement);
    const lineTax = at(lineSettlement, 'ApplicableTradeTax');
    return {
      id: text(li, 'AssociatedDocumentLineDocument', 'LineID'),
      name: text(li, 'SpecifiedTradeProduct', 'Name') ?? '',
      quantity: decimal(text(at(li, names.lineDelivery), 'BilledQuantity')),
      net: decimal(text(lineSettlement, names.lineSummation, 'LineTotalAmount')) ?? '0',
      vatCategory: text(lineTax, 'CategoryCode'),
      vatRatePercent: decimal(text(lineTax, names.rate)),
    };
  });

  const vatBreakdown = all(settlement, 'ApplicableTradeTax').map((t) => ({
    category: text(t, 'CategoryCode') ?? '',
    ratePercent: decimal(text(t, names.rate)),
    taxable: decimal(text(t, 'BasisAmount')) ?? '0',
    tax: decimal(text(t, 'CalculatedAmount')) ?? '0',
    exemptionReason: text(t, 'ExemptionReason'),
  }));

  const means = all(settlement, 'SpecifiedTradeSettlementPaymentMeans');
  const terms = all(settlement, 'SpecifiedTradePaymentTerms');
  return {
    syntax: zugferd1 ? 'cii-zugferd1' : 'cii',
    specification,
    profile: zugferd1 ? 'zugferd1' : profileOf(specification),
    invoiceNumber: text(header, 'ID'),
    typeCode: text(header, 'TypeCode'),
    issueDate: ciiDate(at(header, 'IssueDateTime', 'DateTimeString')),
    dueDate:
      terms.map((t) => ciiDate(at(t, 'DueDateDateTime', 'DateTimeString'))).find(Boolean) ?? null,
    paymentTerms:
      terms
        .map((t) => text(t, 'Description'))
        .filter(Boolean)
        .join('; ') || null,
    currency,
    seller: party(at(agreement, 'SellerTradeParty')),
    buyer: party(at(agreement, 'BuyerTradeParty')),
    payment: {
      ibans: means.flatMap((m) => {
        const v =
          text(m, 'PayeePartyCreditorFinancialAccount', 'IBANID') ??
          text(m, 'PayeePartyCreditorFinancialAccount', 'ProprietaryID');
        return v ? [v.replace(/\s+/g, '').toUpperCase()] : [];
      }),
      bics: means.flatMap((m) => {
        const v = text(m, 'PayeeSpecifiedCreditorFinancialInstitution', 'BICID');
        return v ? [v.replace(/\s+/g, '').toUpperCase()] : [];
      }),
      reference: text(settlement, 'PaymentReference'),
    },
    lines,
    vatBreakdown,
    totals: {
      lineNet: decimal(text(sums, 'LineTotalAmount')),
      allowances: decimal(text(sums, 'AllowanceTotalAmount')),
      charges: decimal(text(sums, 'ChargeTotalAmount')),
      net: decimal(text(sums, 'TaxBasisTotalAmount')),
      tax: taxTotal(all(sums, 'TaxTotalAmount'), currency),
      gross: decimal(text(sums, 'GrandTotalAmount')),
      prepaid: decimal(text(sums, 'TotalPrepaidAmount')),
      rounding: decimal(text(sums, 'RoundingAmount')),
      due: decimal(text(sums, 'DuePayableAmount')),
    },
    references: {
      order: text(agreement, 'BuyerOrderReferencedDocument', 'IssuerAssignedID'),
      contract: text(agreement, 'ContractReferencedDocument', 'IssuerAssignedID'),
      buyer: text(agreement, 'BuyerReference'),
      precedingInvoices: all(settlement, 'InvoiceReferencedDocument').flatMap((d) => {
        const v = text(d, 'IssuerAssignedID');
        return v ? [v] : [];
      }),
    },
  };
}

/** D16B names, and ZUGFeRD 1.x's names for the same places. */
const D16B = {
  context: 'ExchangedDocumentContext',
  header: 'ExchangedDocument',
  transaction: 'SupplyChainTradeTransaction',
  agreement: 'ApplicableHeaderTradeAgreement',
  settlement: 'ApplicableHeaderTradeSettlement',
  summation: 'SpecifiedTradeSettlementHeaderMonetarySummation',
  lineSettlement: 'SpecifiedLineTradeSettlement',
  lineDelivery: 'SpecifiedLineTradeDelivery',
  lineSummation: 'SpecifiedTradeSettlementLineMonetarySummation',
  rate: 'RateApplicablePercent',
};
const ZF1 = {
  context: 'SpecifiedExchangedDocumentContext',
  header: 'HeaderExchangedDocument',
  transaction: 'SpecifiedSupplyChainTradeTransaction',
  agreement: 'ApplicableSupplyChainTradeAgreement',
  settlement: 'ApplicableSupplyChainTradeSettlement',
  summation: 'SpecifiedTradeSettlementMonetarySummation',
  lineSettlement: 'SpecifiedSupplyChainTradeSettlement',
  lineDelivery: 'SpecifiedSupplyChainTradeDelivery',
  lineSummation: 'SpecifiedTradeSettlementMonetarySummation',
  rate: 'ApplicablePercent',
};

/** The tax total in the invoice currency (BT-110; BT-111 is the same in the tax currency). */
function taxTotal(nodes: XmlNode[], currency: string | null): string | null {
  const same = nodes.find((n) => attr(n, 'currencyID') === currency);
  const plain = nodes.find((n) => attr(n, 'currencyID') === null);
  return decimal(textOf(same ?? plain ?? (nodes.length === 1 ? nodes[0] : undefined)));
}

function party(p: XmlNode | undefined): Party {
  const regs = all(p, 'SpecifiedTaxRegistration').map((r) => ({
    scheme: attr(at(r, 'ID'), 'schemeID'),
    id: text(r, 'ID'),
  }));
  const addr = at(p, 'PostalTradeAddress');
  const emails = [
    text(p, 'URIUniversalCommunication', 'URIID'),
    text(p, 'DefinedTradeContact', 'EmailURIUniversalCommunication', 'URIID'),
  ].filter((e): e is string => !!e && e.includes('@'));
  return {
    name: text(p, 'Name'),
    vatIds: regs.filter((r) => r.scheme === 'VA' && r.id).map((r) => r.id!),
    taxIds: regs.filter((r) => r.scheme !== 'VA' && r.id).map((r) => r.id!),
    legalId: text(p, 'SpecifiedLegalOrganization', 'ID'),
    address: {
      lines: ['LineOne', 'LineTwo', 'LineThree'].flatMap((k) => {
        const v = text(addr, k);
        return v ? [v] : [];
      }),
      city: text(addr, 'CityName'),
      postcode: text(addr, 'PostcodeCode'),
      country: text(addr, 'CountryID'),
    },
    emails: [...new Set(emails)],
  };
}

/** `udt:DateTimeString` in format 102 (CCYYMMDD) as YYYY-MM-DD; other formats are not dates. */
function ciiDate(node: XmlNode | undefined): string | null {
  const v = textOf(node);
  if (!v) return null;
  const format = attr(node, 'format') ?? '102';
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(v);
  if (format !== '102' || !m) return null;
  return `${m[1]}-${m[2]}-${m[3]}`;
}
