import { CUSTOMER_MARKERS, LEGAL_FORM, SELLER_LABEL, labelsIn } from '../labels';
import { cells } from './layout';

const GENERIC_TOP =
  /^(?:invoice|tax invoice|factuur|facture|rechnung|faktura|factura|fattura|bill|receipt|payment receipt|kopie factuur|copy|page|seite)\b/i;

function legalName(cell: string): string | null {
  const m = LEGAL_FORM.exec(cell);
  if (!m || m.index === 0) return null;
  // Short forms (AG, KG, SA, BV) count only as printed in capitals: "1.00 kg" is no company.
  if (
    m[0].replace(/\./g, '').length <= 3 &&
    m[0] === m[0].toLowerCase() &&
    !/^(?:ltd|inc|llc|plc|spa|srl|co)\.?$/.test(m[0])
  )
    return null;
  const name = cell
    .slice(0, m.index + m[0].length)
    .replace(/[,\s]+$/, '')
    .trim();
  if (/\d/.test(cell.slice(0, m.index))) return null;
  const words = name.split(/\s+/);
  if (words.length > 8 || !/\p{L}{2,}/u.test(name)) return null;
  // Sentences that merely mention a company ("... are sold by X Inc.") keep the tail only.
  return name;
}

/**
 * The issuer: a name after a seller label; else the most frequent name with a legal form
 * outside the customer's block; else a top line matching the bill's own web or mail domain;
 * else the first top line that is a name. Names in the customer's block never qualify.
 */
export function findIssuer(pages: readonly string[]): string | null {
  const lines = pages.flatMap((p) => p.split(/\r?\n/));
  const customerLines = new Set<number>();
  lines.forEach((l, i) => {
    if (CUSTOMER_MARKERS.test(l))
      for (let k = i; k <= i + 4 && k < lines.length; k++) customerLines.add(k);
  });
  const customerNames = new Set(
    [...customerLines].flatMap((i) => cells(lines[i]!)).map((c) => c.toLowerCase()),
  );
  for (const [i, l] of lines.entries()) {
    const m = SELLER_LABEL.exec(l);
    if (!m) continue;
    // A label opens its cell and ends in a colon or a column gap ("Lieferant: X"); the same
    // word inside a name ("LE FOURNISSEUR") is no label.
    const cellStart = l.lastIndexOf('  ', m.index);
    const before = l.slice(cellStart < 0 ? 0 : cellStart, m.index);
    if (!/^[\s[(]*$/.test(before) && !/[–\-,;|·]\s*$/.test(before)) continue;
    if (!/:\s*$/.test(m[0]) && !/^\s{2,}\S/.test(l.slice(m.index + m[0].trimEnd().length)))
      continue;
    const rest = cells(l.slice(m.index + m[0].length))[0];
    const name = rest?.replace(/[,;]+$/, '').trim();
    if (
      name &&
      /\p{L}{2,}/u.test(name) &&
      name.length <= 80 &&
      !customerNames.has(name.toLowerCase())
    )
      return legalName(name) ?? name;
    void i;
  }
  // The sender line above the address window: "Name · Street 1 · 12345 City".
  for (const [i, l] of lines.entries()) {
    if (customerLines.has(i)) continue;
    const parts = l
      .replace(/\s{2,}/g, ' ')
      .trim()
      .split(/\s+[·•|–-]\s+/);
    const name = parts[0]!.trim();
    if (
      parts.length >= 3 &&
      parts.slice(1).some((p) => /(?<!\d)\d{4,5}\s+\S/u.test(p)) &&
      /^\p{L}[\p{L}\p{N}&'.,\- ]{1,60}$/u.test(name) &&
      !/\d/.test(name) &&
      !customerNames.has(name.toLowerCase())
    )
      return name;
  }
  // The name the page opens with, printed again further down (a footer, a signature).
  const firstIndex = lines.findIndex((l) => l.trim() !== '');
  const opening = firstIndex >= 0 ? cells(lines[firstIndex]!)[0] : undefined;
  if (
    opening &&
    !customerLines.has(firstIndex) &&
    !GENERIC_TOP.test(opening) &&
    /^\p{Lu}[\p{L}&'.,\- ]{1,60}$/u.test(opening) &&
    !/\d/.test(opening) &&
    labelsIn(opening).length === 0 &&
    !customerNames.has(opening.toLowerCase())
  ) {
    const key = opening.toLowerCase();
    const again = lines.some(
      (l, i) =>
        i > firstIndex + 3 &&
        cells(l).some((c) => {
          const lc = c.toLowerCase();
          return lc === key || lc.startsWith(`${key},`) || lc.startsWith(`${key} ·`);
        }),
    );
    if (again) return legalName(opening) ?? opening;
  }
  const counts = new Map<string, { n: number; first: number }>();
  const nameOf: Record<string, string> = {};
  lines.forEach((l, i) => {
    if (customerLines.has(i)) return;
    for (const c of cells(l)) {
      const sentence = /\b(?:sold by|by|of|from)\s+(.+)$/i.exec(c);
      const name = legalName(sentence ? sentence[1]! : c);
      if (!name || customerNames.has(name.toLowerCase())) continue;
      const key = name
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim();
      const e = counts.get(key);
      if (e) e.n++;
      else {
        counts.set(key, { n: 1, first: i });
        nameOf[key] = name;
      }
    }
  });
  const best = [...counts.entries()].sort((a, b) => b[1].n - a[1].n || a[1].first - b[1].first)[0];
  if (best) return nameOf[best[0]]!;
  const text = pages.join('\n');
  const domains = [
    ...new Set(
      [...text.matchAll(/(?:https?:\/\/(?:www\.)?|www\.|@)([a-z0-9-]+)\./gi)]
        .map((m) => m[1]!.toLowerCase().replace(/[^a-z]/g, ''))
        .filter(
          (d) =>
            d.length >= 3 &&
            !/^(?:gmail|yahoo|hotmail|outlook|mail|web|gmx|icloud|example)$/.test(d),
        ),
    ),
  ];
  const top = lines.slice(0, 12).map((l, i) => ({ i, c: cells(l) }));
  for (const { i, c } of top) {
    if (customerLines.has(i)) continue;
    for (const cell of c) {
      const letters = cell.toLowerCase().replace(/[^a-z]/g, '');
      if (letters.length >= 3 && domains.some((d) => d === letters || d.startsWith(letters)))
        return cell;
    }
  }
  for (const { i, c } of top.slice(0, 3)) {
    if (customerLines.has(i)) continue;
    const cell = c[0]
      ?.replace(GENERIC_TOP, '')
      .replace(/\b(?:invoice|factuur|facture|rechnung)\b\.?$/i, '')
      .trim();
    if (
      cell &&
      /^\p{Lu}[\p{L}&'.\- ]{2,60}$/u.test(cell) &&
      !/\d/.test(cell) &&
      !GENERIC_TOP.test(c[0]!)
    )
      return cell;
  }
  return null;
}
