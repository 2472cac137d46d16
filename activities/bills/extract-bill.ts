import type { BillExtraction } from '../../workflows/bills/extraction';
import { assembleExtraction, refuseUnpostable } from './extract/assemble';
import { settleDates } from './extract/bill-dates';
import { CheckLog } from './extract/check-log';
import { readContacts } from './extract/contacts';
import { collectCurrencies, settleCurrency } from './extract/currency';
import { settleInvoiceNumber } from './extract/invoice-number';
import { findIssuer } from './extract/issuer';
import { detectLanguage } from './extract/language';
import { readLabelledValues } from './extract/labelled-values';
import { readLines } from './extract/layout';
import { readLineTables } from './extract/line-tables';
import {
  checkTaxRate,
  confirmGross,
  matchLineItems,
  settleTotals,
  type LabelledMoney,
} from './extract/totals';
import { readVatTables } from './extract/vat-table';

export { findIssuer };

/**
 * Reads a supplier bill's text (one string per page) into its fields and runs the independent
 * checks: net + tax = gross to the cent, tax consistent with a stated rate, lines summing to
 * net or gross, the gross printed under a total label, one invoice number, a parseable issue
 * date, a known ISO currency, an issuer. Pure and deterministic.
 *
 * A pipeline of steps (activities/bills/extract/): the checks are recorded in the order the
 * steps run, and that order is part of the result.
 */
export function extractBill(pages: readonly string[]): BillExtraction {
  const text = pages.join('\n');
  const lines = readLines(pages);
  const language = detectLanguage(text);
  const labelled = readLabelledValues(lines);
  const log = new CheckLog();
  const currency = settleCurrency(collectCurrencies(lines, text, labelled.currencies), text, log);
  const vat = readVatTables(lines);
  const money: LabelledMoney = {
    gross: labelled.gross,
    due: labelled.due,
    net: [...labelled.net, ...vat.net],
    tax: [...labelled.tax, ...vat.tax],
  };
  const tables = readLineTables(lines);
  const totals = settleTotals(money, tables, log);
  const taxRate = checkTaxRate(money.tax, totals, log);
  const items = matchLineItems(tables, totals, log);
  confirmGross(money, totals, items.basis, log);
  const number = settleInvoiceNumber(labelled.numbers, log);
  const dates = settleDates(labelled.dateHits, labelled.proofs, language, currency.currency, log);
  const issuer = findIssuer(pages);
  log.check('issuer_found', issuer ? 'pass' : 'fail', issuer ?? 'no issuer name is printed');
  const contacts = readContacts(text);
  refuseUnpostable(lines, totals.gross, currency.currency, log);
  return assembleExtraction(
    { issuer, number, dates, currency, totals, taxRate, items, contacts, language },
    log,
  );
}
