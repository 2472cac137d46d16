/**
 * The labels bills print, in English, French, German, Dutch, Polish, Spanish, Italian and
 * Portuguese. Each label has a kind; on a line the longest label wins where two overlap, so
 * "Total excl. VAT" is a net label, "Total VAT" a tax label and "Total" a gross label.
 */

export type LabelKind =
  | 'gross' // the invoice total
  | 'due' // the amount due / to pay (a payment may have reduced it)
  | 'net'
  | 'tax'
  | 'number' // the invoice number
  | 'doctype' // a bare "Invoice"/"Factuur"/... heading, a weak number label
  | 'issue_date'
  | 'generic_date'
  | 'due_date'
  | 'other_date' // order/delivery/period dates: never the invoice date
  | 'other_ref'; // order, customer, account numbers: never the invoice number

const L = (kind: LabelKind, source: string) => ({ kind, re: new RegExp(source, 'giu') });
// Word edges that work for accented letters.
const B = '(?<![\\p{L}\\p{N}_])';
const E = '(?![\\p{L}\\p{N}_])';
const TAXW = '(?:vat|tax(?:es)?|gst|hst|btw|tva|mwst\\.?|ust\\.?|iva|vat\\.?)';

export const LABELS: { kind: LabelKind; re: RegExp }[] = [
  // net
  L(
    'net',
    `${B}(?:sub[- ]?total|subtotaal|sous[- ]total|zwischensumme|subtotale|suma\\s+częściowa)${E}`,
  ),
  L(
    'net',
    `${B}(?:total|totaal|totale|amount|bedrag|summe|betrag)\\s+(?:excl(?:\\.|uding|usive(?:\\s+of)?|usief)?|ex\\.?|without|before|zonder|ohne|hors|sans|senza|net(?:to)?)\\s*${TAXW}?${E}`,
  ),
  L(
    'net',
    `${B}(?:net\\s+(?:amount|total|value|price)|total\\s+net|amount\\s+untaxed|taxable\\s+(?:amount|value)|nettobetrag|netto(?:summe|betrag)?|summe\\s+netto|gesamt\\s*netto|warto[śs][ćc]\\s+netto|razem\\s+netto|montant\\s+(?:total\\s+)?h\\.?t\\.?|total\\s+h\\.?t\\.?|base\\s+(?:imponible|ht)|(?:totale\\s+)?imponibile|grondslag|exclusief\\s+btw|excl\\.?\\s+btw|bedrag\\s+excl\\.?|base\\s+tributável)${E}`,
  ),
  // tax
  L(
    'tax',
    `${B}(?:total\\s+|totaal\\s+|montant\\s+|kwota\\s+|importe\\s+|importo\\s+|summe\\s+)?(?:vat|tax(?:es)?|sales\\s+tax|gst|hst|pst|btw|tva|mwst\\.?|ust\\.?|umsatzsteuer|mehrwertsteuer|iva|podatek(?:\\s+vat)?|vat\\s+amount|tax\\s+amount|btw[- ]bedrag|steuer)${E}`,
  ),
  // gross, then what is due
  L(
    'gross',
    `${B}(?:grand\\s+total|total\\s+(?:amount|incl(?:\\.|uding)?\\s*${TAXW}?|ttc|t\\.t\\.c\\.|invoice|facture|for\\s+this\\s+invoice|bill|brutto|gross)|invoice\\s+(?:total|amount)|gross\\s+(?:amount|total)|totaal(?:\\s+incl\\.?\\s*btw)?|factuur\\s*totaal|totaalbedrag|gesamt(?:betrag|summe)?|rechnungs(?:betrag|summe)|endbetrag|bruttobetrag|summe\\s+brutto|montant\\s+(?:ttc|total)|razem(?:\\s+brutto)?|warto[śs][ćc]\\s+brutto|należność(?:\\s+ogółem)?|importe\\s+total|total\\s+factura|totale(?:\\s+(?:documento|fattura))?|importo\\s+totale|valor\\s+total|total)${E}`,
  ),
  L(
    'due',
    `${B}(?:(?:total\\s+)?amount\\s+(?:due|payable)|balance\\s+due|total\\s+(?:amount\\s+)?due|total\\s+(?:to\\s+pay|payable)|somme\\s+à\\s+payer|net\\s+à\\s+payer|(?:montant|reste)\\s+à\\s+payer|à\\s+payer|montant\\s+dû|zu\\s+zahlen|zahlbetrag|te\\s+betalen|do\\s+zapłaty|total\\s+a\\s+pagar|totale\\s+da\\s+pagare|importe\\s+a\\s+pagar)${E}`,
  ),
  // invoice number
  L(
    'number',
    `(?:invoice|bill|receipt|tax\\s+invoice)\\s*(?:no\\.?|nr\\.?|number|num\\.?|#|n[°º]\\.?|id)(?![\\p{L}\\p{N}_])`,
  ),
  L(
    'number',
    `${B}(?:rechnungs?\\s*-?\\s*(?:nr\\.?|nummer|no\\.?)|re\\.?-?nr\\.?|factuur\\s*(?:nr\\.?|nummer|no\\.?)|factuurnummer|factuurnr\\.?|facture\\s*(?:n[°º]|no\\.?|num[ée]ro|nr)|n[°º]\\s*(?:de\\s+)?facture|num[ée]ro\\s+de\\s+facture|faktura\\s+(?:vat\\s+)?(?:nr\\.?|numer)|numer\\s+faktury|nr\\s+faktury|factura\\s*(?:n[°º.]?|no\\.?|núm(?:ero)?\\.?|nr)|n[°º]\\s*(?:de\\s+)?factura|número\\s+de\\s+factura|fattura\\s*(?:n[°º.]?|nr\\.?|numero|num\\.?)|numero\\s+(?:della\\s+)?fattura|fatura\\s*n[°º.]?)`,
  ),
  L(
    'doctype',
    `${B}(?:invoice|tax\\s+invoice|bill|factuur|facture|rechnung|faktura(?:\\s+vat)?|factura|fattura|fatura)${E}`,
  ),
  // other references that sit next to the invoice number
  L(
    'other_ref',
    `${B}(?:order|purchase\\s+order|po|customer|client|account|contract|booking|dossier|delivery\\s+note|klant|kunden|bestell|auftrags|commande|zamówienia|pedido|ordine|cliente|order|ordernummer|klantnummer|kundennr|bestellnr|auftragsnr)\\.?\\s*(?:no\\.?|nr\\.?|number|num[ée]ro|#|n[°º]|id|nummer)?${E}`,
  ),
  // dates
  L(
    'issue_date',
    `${B}(?:invoice\\s+date|date\\s+of\\s+(?:invoice|issue)|issue\\s+date|date\\s+issued|billing\\s+date|bill\\s+date|tax\\s+point|factuurdatum|factuur\\s+datum|rechnungsdatum|datum\\s+der\\s+rechnung|date\\s+(?:de\\s+(?:la\\s+)?)?facture|date\\s+d['’]émission|data\\s+wystawienia|data\\s+faktury|fecha\\s+(?:de\\s+)?(?:factura|emisión|expedición)|data\\s+(?:della\\s+)?fattura|data\\s+(?:de\\s+)?emissão)${E}`,
  ),
  L(
    'due_date',
    `${B}(?:due\\s+date|date\\s+due|payment\\s+due|due\\s+by|pay\\s+by|vervaldatum|uiterste\\s+betaaldatum|fällig(?:keit(?:sdatum)?)?(?:\\s+am)?|zahlungsziel|date\\s+(?:limite|d['’]échéance)(?:\\s+de\\s+paiement)?|échéance|termin\\s+płatności|fecha\\s+de\\s+vencimiento|vencimiento|scadenza|data\\s+di\\s+scadenza|data\\s+de\\s+vencimento)${E}`,
  ),
  L(
    'other_date',
    `${B}(?:order\\s+date|delivery\\s+date|ship(?:ping)?\\s+date|service\\s+date|period|orderdatum|leverdatum|bestelldatum|lieferdatum|leistungsdatum|date\\s+de\\s+(?:commande|livraison)|data\\s+(?:sprzedaży|zamówienia|dostawy)|fecha\\s+(?:de\\s+)?(?:pedido|entrega)|data\\s+(?:ordine|consegna)|check\\s+(?:in|out))${E}`,
  ),
  L('generic_date', `${B}(?:date|dated|datum|data|fecha)${E}`),
];

/**
 * Labels as real invoices print them, per language and kind: literal phrases, compiled below
 * (case and spacing free, a '.' optional, '-' optional, '°'/'º' alike). They add to the
 * patterns above; where two overlap on a line the longer wins, so "Gesamtbetrag netto" is a
 * net label and "Total líneas" is not the gross.
 */
export const LABEL_PHRASES: Record<string, Partial<Record<LabelKind, readonly string[]>>> = {
  de: {
    number: [
      'Rechnungsnummer',
      'Rechnungs-Nr.',
      'Rechnung Nr.',
      'Rechnungs-Nummer',
      'Rechnung Nummer',
      'Belegnummer',
      'Beleg-Nr.',
      'Belegnr.',
      'Dokumentnummer',
      'Dokument-Nr.',
      'Re.-Nr.',
      'RG-Nr.',
      'Rg.-Nr.',
    ],
    issue_date: [
      'Rechnungsdatum',
      'Rechnungs-Datum',
      'Belegdatum',
      'Beleg-Datum',
      'Ausstellungsdatum',
      'Dokumentdatum',
      'Datum der Rechnung',
    ],
    due_date: [
      'Fällig am',
      'Fällig bis',
      'Zahlbar bis',
      'Zahlbar bis zum',
      'Fälligkeitsdatum',
      'Fälligkeit',
      'Zahlungsziel',
    ],
    other_date: [
      'Lieferdatum',
      'Leistungsdatum',
      'Leistungszeitraum',
      'Lieferzeitraum',
      'Liefertermin',
      'Bestelldatum',
      'Auftragsdatum',
    ],
    other_ref: [
      'Kundennummer',
      'Kunden-Nr.',
      'Kundennr.',
      'Bestellnummer',
      'Bestell-Nr.',
      'Auftragsnummer',
      'Auftrags-Nr.',
      'Ihre Bestellung',
      'Ihr Zeichen',
      'Unser Zeichen',
      'Lieferschein-Nr.',
      'Lieferscheinnummer',
      'Projektnummer',
      'Steuernummer',
      'USt-IdNr.',
      'USt-ID',
      'Ust.-Id.-Nr.',
      'Ursprungsrechnung',
      'Bezugsrechnung',
      'Ursprüngliche Rechnung',
      'Rechnungsnummer der Ursprungsrechnung',
      'Korrektur zu Rechnung',
    ],
    net: [
      'Nettobetrag',
      'Nettosumme',
      'Summe netto',
      'Gesamtbetrag netto',
      'Gesamt netto',
      'Rechnungsbetrag netto',
      'Warenwert netto',
      'Warenwert',
      'Zwischensumme',
      'Summe Positionen',
      'Positionssumme',
      'Summe exkl. MwSt.',
      'Gesamtbetrag exkl. MwSt.',
      'Gesamtpreis netto',
    ],
    tax: [
      'MwSt.',
      'USt.',
      'Umsatzsteuer',
      'Mehrwertsteuer',
      'zzgl. MwSt.',
      'zzgl. USt.',
      'zzgl. Umsatzsteuer',
      'zuzüglich Umsatzsteuer',
      'MwSt. gesamt',
      'Summe USt.',
      'Summe MwSt.',
      'Umsatzsteuer gesamt',
      'Steuerbetrag',
    ],
    gross: [
      'Bruttobetrag',
      'Bruttosumme',
      'Gesamtsumme',
      'Gesamtbetrag',
      'Gesamtbetrag brutto',
      'Gesamt brutto',
      'Summe brutto',
      'Rechnungsbetrag',
      'Rechnungsbetrag brutto',
      'Rechnungssumme',
      'Endbetrag',
      'Endsumme',
      'Gesamtpreis brutto',
      'Summe inkl. MwSt.',
      'Gesamtbetrag inkl. MwSt.',
      'Gesamtbetrag inkl. USt.',
    ],
    due: [
      'Zahlbetrag',
      'Zahlungsbetrag',
      'Zu zahlen',
      'Noch zu zahlen',
      'Offener Betrag',
      'Restbetrag',
      'Fälliger Betrag',
      'Zu zahlender Betrag',
      'Zahlbarer Betrag',
      'Rechnungsendbetrag',
    ],
  },
  fr: {
    number: [
      'N° de facture',
      'N° facture',
      'No de facture',
      'Numéro de facture',
      'Numéro facture',
      'Facture n°',
      'Facture numéro',
      'Réf. facture',
    ],
    issue_date: [
      'Date de facture',
      'Date de la facture',
      'Date facture',
      "Date d'émission",
      "Date d'édition",
      'Émise le',
      'Établie le',
    ],
    due_date: [
      "Date d'échéance",
      'Échéance',
      'Date limite de paiement',
      'À payer avant le',
      'Payable le',
      'Payable avant le',
    ],
    other_date: [
      'Date de livraison',
      'Date de prestation',
      'Date de commande',
      'Période',
      'Livré le',
      'Date de facture associée',
      "Date de la facture d'origine",
    ],
    other_ref: [
      'N° client',
      'Code client',
      'Référence client',
      'Réf. client',
      'N° de commande',
      'Référence commande',
      'Réf. commande',
      'Votre commande',
      'Votre référence',
      'N° TVA',
      'N° TVA intracom.',
      'N° TVA intracommunautaire',
      'SIRET',
      'SIREN',
      'N° de facture associée',
      'Facture associée',
      "Facture d'origine",
      'Facture initiale',
      'Facture rectifiée',
      'Avoir sur facture',
    ],
    net: [
      'Total HT',
      'Montant HT',
      'Total hors taxes',
      'Montant hors taxes',
      'Total H.T.',
      'Sous-total',
      'Sous-total HT',
      'Total lignes',
      'Base HT',
    ],
    tax: ['TVA', 'TVA à', 'Montant TVA', 'Total TVA', 'Montant de la TVA'],
    gross: [
      'Total TTC',
      'Montant TTC',
      'Montant total TTC',
      'Total toutes taxes comprises',
      'Total T.T.C.',
      'Total facture',
      'Montant total',
    ],
    due: ['Net à payer', 'Reste à payer', 'Montant à payer', 'Total à payer', 'Solde dû'],
  },
  en: {
    number: ['Invoice number', 'Invoice No.', 'Invoice #', 'Invoice ID', 'Inv. No.', 'Invoice Nr.'],
    issue_date: ['Invoice date', 'Date of issue', 'Issue date', 'Date issued', 'Tax point date'],
    due_date: ['Due date', 'Payment due', 'Payment due date', 'Due by', 'Pay by'],
    other_date: [
      'Delivery date',
      'Date of supply',
      'Supply date',
      'Service date',
      'Service period',
      'Order date',
      'Original invoice date',
    ],
    other_ref: [
      'Purchase order',
      'PO Number',
      'PO No.',
      'Order No.',
      'Order number',
      'Your reference',
      'Our reference',
      'Customer No.',
      'Customer number',
      'Customer ID',
      'Account number',
      'Account No.',
      'VAT No.',
      'VAT number',
      'VAT ID',
      'VAT Reg. No.',
      'Company No.',
      'Original invoice',
      'Original invoice number',
      'Preceding invoice',
      'Referenced invoice',
      'Corrected invoice',
    ],
    net: [
      'Subtotal',
      'Net amount',
      'Net total',
      'Total net',
      'Total excl. VAT',
      'Total excluding VAT',
      'Total before tax',
      'Lines total',
      'Sum of lines',
      'Total net amount',
      'Net invoice amount',
      'Amount excl. VAT',
      'Amount excluding VAT',
      'Total amount excl. VAT',
      'Total amount excluding VAT',
    ],
    tax: ['VAT', 'Tax', 'Total VAT', 'VAT amount', 'Total tax', 'Tax amount', 'Sales tax'],
    gross: [
      'Total',
      'Total incl. VAT',
      'Total including VAT',
      'Invoice total',
      'Gross amount',
      'Gross total',
      'Total amount',
      'Grand total',
      'Invoice amount',
      'Total invoice amount',
      'Total gross',
    ],
    due: ['Amount due', 'Balance due', 'Total due', 'Amount payable', 'Total payable'],
  },
  nl: {
    number: ['Factuurnummer', 'Factuurnr.', 'Factuur nr.', 'Factuur nummer'],
    issue_date: ['Factuurdatum', 'Datum factuur'],
    due_date: ['Vervaldatum', 'Uiterste betaaldatum', 'Betalen voor'],
    other_date: ['Leverdatum', 'Leveringsdatum', 'Orderdatum'],
    other_ref: [
      'Klantnummer',
      'Debiteurnummer',
      'Ordernummer',
      'Bestelnummer',
      'Uw referentie',
      'Onze referentie',
      'Btw-nummer',
      'KvK-nummer',
    ],
    net: [
      'Subtotaal',
      'Totaal excl. btw',
      'Totaal exclusief btw',
      'Bedrag excl. btw',
      'Totaal regels',
      'Netto bedrag',
    ],
    tax: ['Btw', 'Btw-bedrag', 'Totaal btw'],
    gross: ['Totaal', 'Totaal incl. btw', 'Totaal inclusief btw', 'Totaalbedrag', 'Factuurbedrag'],
    due: ['Te betalen', 'Nog te betalen', 'Openstaand bedrag'],
  },
  es: {
    number: [
      'Número de factura',
      'Nº de factura',
      'N.º de factura',
      'Nº factura',
      'N.º factura',
      'Núm. factura',
      'Factura nº',
      'Factura n.º',
      'Factura número',
    ],
    issue_date: ['Fecha de factura', 'Fecha factura', 'Fecha de emisión', 'Fecha de expedición'],
    due_date: ['Vencimiento', 'Fecha de vencimiento'],
    other_date: ['Fecha de entrega', 'Fecha de servicio', 'Fecha de pedido'],
    other_ref: [
      'Nº cliente',
      'N.º cliente',
      'Código de cliente',
      'Número de pedido',
      'Nº pedido',
      'Pedido',
      'Su referencia',
      'NIF',
      'CIF',
      'NIF/IVA',
    ],
    net: [
      'Base imponible',
      'Subtotal',
      'Importe neto',
      'Total neto',
      'Total sin IVA',
      'Suma de líneas',
      'Total líneas',
    ],
    tax: ['IVA', 'Cuota IVA', 'Cuota de IVA', 'Total IVA', 'Cuota total IVA', 'Importe IVA'],
    gross: ['Total', 'Total factura', 'Importe total', 'Total con IVA', 'Total IVA incluido'],
    due: ['Total a pagar', 'Importe a pagar'],
  },
  it: {
    number: [
      'Numero fattura',
      'Fattura n.',
      'Fattura N°',
      'Fattura numero',
      'N. fattura',
      'Nr. fattura',
      'Numero documento',
      'Documento n.',
    ],
    issue_date: [
      'Data fattura',
      'Data documento',
      'Data emissione',
      'Data di emissione',
      'Data della fattura',
    ],
    due_date: ['Scadenza', 'Data scadenza', 'Data di scadenza', 'Scadenza pagamento'],
    other_date: ['Data consegna', 'Data di consegna', 'Data DDT', 'Data ordine'],
    other_ref: [
      'Codice cliente',
      'Cod. cliente',
      'Ordine n.',
      'Rif. ordine',
      'Vs. ordine',
      'Vs. riferimento',
      'P. IVA',
      'Partita IVA',
      'Codice fiscale',
      'DDT n.',
    ],
    net: ['Imponibile', 'Totale imponibile', 'Totale netto', 'Totale righe', 'Totale merce'],
    tax: ['IVA', 'Imposta', 'Totale IVA', 'Totale imposta', 'Importo IVA'],
    gross: ['Totale', 'Totale fattura', 'Totale documento', 'Importo totale', 'Totale complessivo'],
    due: ['Netto a pagare', 'Totale da pagare', 'Importo da pagare'],
  },
};

/** A literal phrase as a pattern: case and spacing free, '.' and '-' optional, °/º alike. */
export function phraseSource(phrase: string): string {
  let out = '';
  const chars = [...phrase.toLowerCase()];
  chars.forEach((ch, i) => {
    const prev = chars[i - 1];
    if (ch === ' ') out += prev === '.' || prev === '°' || prev === 'º' ? '\\s*' : '\\s+';
    else if (ch === '.') out += i === chars.length - 1 ? `(?:\\.|${E})` : '\\.?';
    else if (ch === '-') out += '[-\\s]?';
    else if (ch === '°' || ch === 'º') out += '[°º]';
    else if (ch === "'" || ch === '’') out += "['’]";
    else if (ch === '/') out += '\\s*/\\s*';
    else {
      // Accents are often dropped in capitals ("NET A PAYER"): either form matches.
      const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      out +=
        base !== ch && base.length === 1
          ? `[${base}${ch}]`
          : ch.replace(/[\\^$*+?()[\]{}|]/g, '\\$&');
    }
  });
  // A phrase ending in a letter or digit must end a word there.
  return /[\p{L}\p{N}]$/u.test(phrase) ? out + E : out;
}

for (const kinds of Object.values(LABEL_PHRASES))
  for (const [kind, phrases] of Object.entries(kinds) as [LabelKind, readonly string[]][])
    LABELS.push(
      // Longest first: an alternation takes the first phrase that matches.
      L(
        kind,
        `${B}(?:${[...new Set(phrases)]
          .sort((a, b) => b.length - a.length)
          .map(phraseSource)
          .join('|')})`,
      ),
    );

export interface LabelHit {
  kind: LabelKind;
  index: number;
  end: number;
  text: string;
}

/** Labels on a line, left to right; where two overlap the longer one wins. */
export function labelsIn(line: string): LabelHit[] {
  const hits: LabelHit[] = [];
  for (const { kind, re } of LABELS) {
    re.lastIndex = 0;
    for (const m of line.matchAll(re))
      hits.push({ kind, index: m.index!, end: m.index! + m[0].length, text: m[0] });
  }
  hits.sort((a, b) => b.end - b.index - (a.end - a.index) || a.index - b.index);
  const kept: LabelHit[] = [];
  for (const h of hits) if (!kept.some((k) => h.index < k.end && h.end > k.index)) kept.push(h);
  return kept.sort((a, b) => a.index - b.index);
}

/**
 * Where a bill states its currency apart from the figures; group 1 is the code or symbol.
 * A currency label ("Währung: EUR", "Devise : EUR", "Currency EUR"), a note on the amounts
 * ("Alle Beträge in EUR", "Montants exprimés en €", "Importi in EUR"), a column head
 * ("Betrag (EUR)", "Amount (€)").
 */
const CUR = '([A-Z]{3}|€|£)(?![\\p{L}\\p{N}])';
export const CURRENCY_CUES: RegExp[] = [
  new RegExp(
    `(?<![\\p{L}])(?:währung|currency|devise|monnaie|valuta|moneda|divisa)\\s*:?\\s*${CUR}`,
    'giu',
  ),
  new RegExp(
    `(?<![\\p{L}])(?:beträge|betrag|preise|amounts?|prices|montants?|prix|bedragen|prijzen|importes?|precios|importi|prezzi)(?:\\s+\\p{L}+){0,2}\\s+(?:in|en|em)\\s+${CUR}`,
    'giu',
  ),
  new RegExp(`\\(\\s*${CUR}\\s*\\)`, 'gu'),
  new RegExp(`\\[\\s*${CUR}\\s*\\]`, 'gu'),
  // A column head or total naming the currency after a money word ("Betrag EUR", "Total EUR").
  new RegExp(
    `(?<![\\p{L}])(?:betrag|preis|summe|gesamt|netto|brutto|amount|price|total|montant|prix|bedrag|prijs|totaal|importe|precio|importo|prezzo|totale)\\s+${CUR}`,
    'giu',
  ),
];

/**
 * Titles of documents that are not a bill to post as one: credit notes, corrections,
 * cancellations, pro formas and quotes. Matched against whole cells (the title alone, or with
 * its number), never inside running text ("avoir" is also a French verb).
 */
export const NOT_A_BILL =
  /^((?:gutschrift|rechnungskorrektur|korrekturrechnung|stornorechnung|storno(?:beleg)?|credit\s*note|credit\s+memo|avoir|facture\s+d['’]avoir|facture\s+rectificative|note\s+de\s+cr[ée]dit|creditnota|creditfactuur|nota\s+di\s+credito|nota\s+de\s+cr[ée]dito|factura\s+rectificativa|abono|pro[\s-]?forma(?:[\s-]?(?:rechnung|invoice|factuur|facture|factura|fattura))?|angebot|quotation|quote|devis|offerte|presupuesto|preventivo))(?:\s*(?:nr\.?|no\.?|n[°º]\.?|#|number|nummer|numéro|número|numero)?\s*[:.]?\s*[\p{L}\p{N}/_.-]*\d[\p{L}\p{N}/_.-]*)?\s*$/iu;

/** Table header words: a line with two or more of them (and no amount) opens a line table. */
export const TABLE_HEADER =
  /(?<![\p{L}])(?:description|item|items|qty|quantity|unit\s*price|price|amount|rate|product|title|hours|artikel|omschrijving|aantal|prijs|bedrag|beschreibung|bezeichnung|menge|anzahl|preis|einzelpreis|betrag|zeilenbetrag|gesamtpreis|désignation|designation|libellé|quantité|nombre|montant|prix|p\.u\.|nazwa(?:\s+towaru)?|ilość|cena|wartość|descripción|concepto|cantidad|precio|importe|descrizione|quantità|prezzo|importo|quantidade|preço|valor|pos\.?|lp)(?![\p{L}])/giu;

/** Lines that detail a component already inside the previous line's amount. */
export const INCLUDED_COMPONENT =
  /^\s*(?:incl\.?|inclusief|including|included|inkl\.?|inklusive|davon|dont|w\s+tym|incluido|di\s+cui)\b/iu;

/** Markers that open the customer's block: the names after them are not the issuer. */
export const CUSTOMER_MARKERS =
  /(?<![\p{L}])(?:bill(?:ed)?\s+to|invoice\s+to|ship(?:ped)?\s+to|sold\s+to|deliver(?:ed|y)?\s+to|customer|client|attn|billing\s+address|shipping\s+address|guest\s+name|factuuradres|afleveradres|t\.a\.v\.|rechnungsadresse|lieferadresse|rechnungsempfänger|adresse\s+de\s+(?:facturation|livraison)|nom\s+de\s+l['’]abonné|nabywca|odbiorca|facturar\s+a|destinatario|cliente)(?![\p{L}])/iu;

/** Labels that name the issuer (the seller, the payee). */
export const SELLER_LABEL =
  /(?<![\p{L}])(?:sold\s+by|seller|supplier|vendor|issued\s+by|service\s+provider|payee|beneficiary|account\s+holder|in\s+favou?r\s+of|verkäufer|lieferant|kontoinhaber|vendeur|fournisseur|titulaire\s+du\s+compte|leverancier|verkoper|rekeninghouder|sprzedawca|wystawca|proveedor|emisor|fornitore|cedente|prestador)(?![\p{L}])\s*:?\s*/iu;

export const LEGAL_FORM =
  /(?<![\p{L}])(?:inc\.?|incorporated|llc|l\.l\.c\.|ltd\.?|limited|plc|corp\.?|corporation|co\.|gmbh|ag|kg|e\.k\.|ug|b\.v\.?|bv|n\.v\.?|nv|vof|s\.a\.?|sa|sas|s\.a\.s\.|sarl|s\.a\.r\.l\.|eurl|s\.p\.a\.?|spa|s\.r\.l\.?|srl|s\.l\.?|sl|sp\.\s*z\s*o\.\s*o\.?|spółka\s+akcyjna|spółka\s+z\s+ograniczoną\s+odpowiedzialnością|pvt\.?\s*ltd\.?|private\s+limited|pty\.?\s*ltd\.?|oy|ab|aps|a\/s|as|bvba|sprl)(?![\p{L}])/iu;
