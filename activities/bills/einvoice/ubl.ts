import type { Party, StructuredInvoice } from '../../../workflows/bills/structured-invoice';
import { profileOf } from './profile';
import { all, at, attr, decimal, text, textOf, type XmlNode } from './xml';

/**
 * OASIS UBL 2.1 `Invoice` and `CreditNote` (PEPPOL BIS Billing 3.0, XRechnung UBL, the CEN
 * examples) into the EN 16931 model.
 */
export function readUbl(root: XmlNode, creditNote: boolean): StructuredInvoice {
  const currency = text(root, 'DocumentCurrencyCode');
  const totals = at(root, 'LegalMonetaryTotal');
  const specification = text(root, 'CustomizationID');
  const lineName = creditNote ? 'CreditNoteLine' : 'InvoiceLine';
  const qtyName = creditNote ? 'CreditedQuantity' : 'InvoicedQuantity';

  const lines = all(root, lineName).map((l) => {
    const cat = at(l, 'Item', 'ClassifiedTaxCategory');
    return {
      id: text(l, 'ID'),
      name: text(l, 'Item', 'Name') ?? text(l, 'Item', 'Description') ?? '',
      quantity: decimal(text(l, qtyName)),
      net: decimal(text(l, 'LineExtensionAmount')) ?? '0',
      vatCategory: text(cat, 'ID'),
      vatRatePercent: decimal(text(cat, 'Percent')),
    };
  });

  // BT-110 is the TaxTotal in the document currency; a second TaxTotal (BT-111) is in the
  // tax currency and carries no subtotals.
  const taxTotals = all(root, 'TaxTotal');
  const docTaxTotal =
    taxTotals.find((t) => attr(at(t, 'TaxAmount'), 'currencyID') === currency) ?? taxTotals[0];
  const vatBreakdown = all(docTaxTotal, 'TaxSubtotal').map((s) => ({
    category: text(s, 'TaxCategory', 'ID') ?? '',
    ratePercent: decimal(text(s, 'TaxCategory', 'Percent')),
    taxable: decimal(text(s, 'TaxableAmount')) ?? '0',
    tax: decimal(text(s, 'TaxAmount')) ?? '0',
    exemptionReason: text(s, 'TaxCategory', 'TaxExemptionReason'),
  }));

  const means = all(root, 'PaymentMeans');
  return {
    syntax: creditNote ? 'ubl-creditnote' : 'ubl-invoice',
    specification,
    profile: profileOf(specification),
    invoiceNumber: text(root, 'ID'),
    typeCode: text(root, creditNote ? 'CreditNoteTypeCode' : 'InvoiceTypeCode'),
    issueDate: isoDate(text(root, 'IssueDate')),
    dueDate:
      isoDate(text(root, 'DueDate')) ??
      means.map((m) => isoDate(text(m, 'PaymentDueDate'))).find(Boolean) ??
      null,
    paymentTerms:
      all(root, 'PaymentTerms')
        .map((t) => text(t, 'Note'))
        .filter(Boolean)
        .join('; ') || null,
    currency,
    seller: party(at(root, 'AccountingSupplierParty', 'Party')),
    buyer: party(at(root, 'AccountingCustomerParty', 'Party')),
    payment: {
      ibans: means.flatMap((m) => {
        const v = text(m, 'PayeeFinancialAccount', 'ID');
        return v ? [v.replace(/\s+/g, '').toUpperCase()] : [];
      }),
      bics: means.flatMap((m) => {
        const v = text(m, 'PayeeFinancialAccount', 'FinancialInstitutionBranch', 'ID');
        return v ? [v.replace(/\s+/g, '').toUpperCase()] : [];
      }),
      reference: means.map((m) => text(m, 'PaymentID')).find(Boolean) ?? null,
    },
    lines,
    vatBreakdown,
    totals: {
      lineNet: decimal(text(totals, 'LineExtensionAmount')),
      allowances: decimal(text(totals, 'AllowanceTotalAmount')),
      charges: decimal(text(totals, 'ChargeTotalAmount')),
      net: decimal(text(totals, 'TaxExclusiveAmount')),
      tax: decimal(textOf(at(docTaxTotal, 'TaxAmount'))),
      gross: decimal(text(totals, 'TaxInclusiveAmount')),
      prepaid: decimal(text(totals, 'PrepaidAmount')),
      rounding: decimal(text(totals, 'PayableRoundingAmount')),
      due: decimal(text(totals, 'PayableAmount')),
    },
    references: {
      order: text(root, 'OrderReference', 'ID'),
      contract: text(root, 'ContractDocumentReference', 'ID'),
      buyer: text(root, 'BuyerReference'),
      precedingInvoices: all(root, 'BillingReference').flatMap((b) => {
        const v = text(b, 'InvoiceDocumentReference', 'ID');
        return v ? [v] : [];
      }),
    },
  };
}

function party(p: XmlNode | undefined): Party {
  const schemes = all(p, 'PartyTaxScheme').map((s) => ({
    id: text(s, 'CompanyID'),
    scheme: text(s, 'TaxScheme', 'ID'),
  }));
  const addr = at(p, 'PostalAddress');
  const emails = [text(p, 'Contact', 'ElectronicMail')];
  const endpoint = at(p, 'EndpointID');
  if (attr(endpoint, 'schemeID') === 'EM') emails.push(textOf(endpoint));
  return {
    name: text(p, 'PartyName', 'Name') ?? text(p, 'PartyLegalEntity', 'RegistrationName') ?? null,
    vatIds: schemes.filter((s) => s.scheme === 'VAT' && s.id).map((s) => s.id!),
    taxIds: schemes.filter((s) => s.scheme !== 'VAT' && s.id).map((s) => s.id!),
    legalId: text(p, 'PartyLegalEntity', 'CompanyID'),
    address: {
      lines: ['StreetName', 'AdditionalStreetName'].flatMap((k) => {
        const v = text(addr, k);
        return v ? [v] : [];
      }),
      city: text(addr, 'CityName'),
      postcode: text(addr, 'PostalZone'),
      country: text(addr, 'Country', 'IdentificationCode'),
    },
    emails: [...new Set(emails.filter((e): e is string => !!e && e.includes('@')))],
  };
}

const isoDate = (v: string | null) => (v && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : null);
