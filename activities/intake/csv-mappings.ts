import { CsvMappingSchema, type CsvMapping, type CsvMappingInput } from './csv';

/**
 * Column mappings of the bank CSV exports we read. Data, not logic: a new bank is a new entry
 * here (or a mapping handed to the importer), validated by CsvMappingSchema like any other.
 */
const MAPPINGS: CsvMappingInput[] = [
  {
    id: 'monzo',
    label: 'Monzo',
    delimiter: ',',
    encoding: 'utf-8',
    dateFormat: 'YYYY-MM-DD*',
    decimalSeparator: '.',
    columns: {
      date: 'created',
      amount: 'amount',
      currency: 'currency',
      payee: 'description',
      memo: ['notes'],
      id: 'id',
    },
  },
  {
    id: 'bunq',
    label: 'bunq',
    delimiter: ',',
    encoding: 'utf-8',
    dateFormat: 'YYYY-MM-DD',
    decimalSeparator: ',',
    thousandsSeparator: '.',
    currency: 'EUR',
    columns: {
      date: 'Date',
      amount: 'Amount',
      account: 'Account',
      counterpartyAccount: 'Counterparty',
      payee: 'Name',
      memo: ['Description'],
    },
  },
  {
    // The German savings banks' "CSV-CAMT" export (Umsätze).
    id: 'sparkasse-csv-camt',
    label: 'Sparkasse CSV-CAMT',
    delimiter: ';',
    encoding: 'windows-1252',
    dateFormat: 'DD.MM.YY',
    decimalSeparator: ',',
    thousandsSeparator: '.',
    columns: {
      date: 'Buchungstag',
      valueDate: 'Valutadatum',
      amount: 'Betrag',
      currency: 'Waehrung',
      payee: 'Beguenstigter/Zahlungspflichtiger',
      counterpartyAccount: 'Kontonummer',
      memo: ['Buchungstext', 'Verwendungszweck'],
      account: 'Auftragskonto',
    },
    skipRows: { column: 'Info', values: ['Umsatz vorgemerkt'] },
  },
];

export const CSV_MAPPINGS: readonly CsvMapping[] = MAPPINGS.map((m) => CsvMappingSchema.parse(m));
