const LANG_WORDS: [string, RegExp][] = [
  ['en', /\b(?:invoice|total|amount|date|due|tax|bill|price|quantity|description)\b/gi],
  ['nl', /\b(?:factuur|totaal|btw|bedrag|datum|prijs|aantal|omschrijving)\b/gi],
  ['de', /\b(?:rechnung|gesamt|mwst|betrag|datum|preis|menge|beschreibung|summe)\b/gi],
  ['fr', /\b(?:facture|montant|tva|prix|désignation|quantité|ttc|ht)\b/gi],
  ['pl', /\b(?:faktura|razem|netto|brutto|wartość|ilość|cena|nabywca|sprzedawca)\b/gi],
  ['es', /\b(?:factura|importe|fecha|precio|cantidad|iva|descripción)\b/gi],
  ['it', /\b(?:fattura|importo|totale|prezzo|quantità|iva|descrizione)\b/gi],
];

/**
 * The bill's language, by the most common invoice words: only to decide the day/month order of
 * ambiguous numeric dates. Null when none is printed.
 */
export function detectLanguage(text: string): string | null {
  const langScores = LANG_WORDS.map(([l, re]) => [l, (text.match(re) ?? []).length] as const).sort(
    (a, b) => b[1] - a[1],
  );
  return langScores[0]![1] > 0 ? langScores[0]![0] : null;
}
