import type { StructuredInvoice } from '../../../workflows/bills/structured-invoice';
import { readCii } from './cii';
import { readUbl } from './ubl';
import { EInvoiceRefusal, parseInvoiceXml } from './xml';

/**
 * Any structured invoice by its root element: CII D16B, ZUGFeRD 1.x, UBL Invoice or
 * CreditNote. Anything else is a typed refusal (`not_an_invoice`), never a guess.
 */
export function readStructuredInvoice(xml: string): StructuredInvoice {
  const { root, node } = parseInvoiceXml(xml);
  switch (root) {
    case 'CrossIndustryInvoice':
      return readCii(node, false);
    case 'CrossIndustryDocument':
      return readCii(node, true);
    case 'Invoice':
      return readUbl(node, false);
    case 'CreditNote':
      return readUbl(node, true);
    default:
      throw new EInvoiceRefusal(
        'not_an_invoice',
        `The XML's root is ${root}, not an invoice (CrossIndustryInvoice, CrossIndustryDocument, Invoice or CreditNote)`,
      );
  }
}

/** The root element names of invoices: an attachment of any name with one of these roots is read. */
export function looksLikeInvoiceXml(head: string): boolean {
  return /<(?:[A-Za-z][\w.-]*:)?(?:CrossIndustryInvoice|CrossIndustryDocument|Invoice|CreditNote)[\s>]/.test(
    head,
  );
}
