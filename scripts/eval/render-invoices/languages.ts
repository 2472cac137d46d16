/**
 * The languages an invoice is printed in (de, fr, en, nl, es, it): each one's labels, month
 * names, date separators and number styles (`VOCAB`), and dates formatted as it prints them.
 */

import type { DateStyle, NumberStyle } from './formats';

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

export const VOCAB: Record<Lang, Vocab> = {
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
