/**
 * Realistic values for the placeholders of the XRechnung samples: seller and buyer names,
 * streets, cities and invoice numbers, seeded per invoice (`realize`).
 */

import type { Gold, Party } from './gold';
import { pick, rng } from './seeded';

const SELLERS = [
  'Nordwind Handelsgesellschaft mbH',
  'Bergmann & Söhne KG',
  'Hartmann Bürotechnik',
  'Atelier Lumière SARL',
  'Transports Girard et Fils',
  'Van Dijk Installatietechniek B.V.',
  'Brightline Consulting Ltd',
  'Rossi Forniture S.r.l.',
  'Suministros Levante S.L.',
  'Kessler Maschinenbau AG',
  'Oakridge Office Supplies',
  'Müller Elektrotechnik e.K.',
];
const BUYERS = [
  'Stadtwerke Musterstadt',
  'Café Central OHG',
  'Bureau Vallée Lyon',
  'Meyer Logistik GmbH',
  'De Groot Bouw',
  'Harbour Analytics Ltd',
];
const STREETS = [
  'Industriestraße 12',
  'Rue des Lilas 8',
  'Keizersgracht 221',
  'Via Roma 45',
  'High Street 17',
];
const CITIES: [string, string][] = [
  ['10115', 'Berlin'],
  ['69002', 'Lyon'],
  ['1017 EB', 'Amsterdam'],
  ['20121', 'Milano'],
  ['28001', 'Madrid'],
];

/**
 * The XRechnung test files print placeholders ("[Seller name]", "[Buyer city]") and a few
 * number placeholders without a digit ("Rechnungsnummer"); no real invoice does. Those fields
 * get a seeded realistic value (the same for every variant of the invoice), and the gold
 * follows: every other field stays as the XML has it.
 */
export function realize(g: Gold): Gold {
  const r = rng(`realize|${g.number}|${g.issueDate}|${g.gross}`);
  const placeholder = (v: string | null) => v !== null && /\[[^\]]*\]/.test(v);
  const party = (p: Party, names: string[]): Party => {
    const [postcode, city] = pick(r, CITIES);
    return {
      name: placeholder(p.name) || !p.name ? pick(r, names) : p.name,
      street: placeholder(p.street) ? pick(r, STREETS) : p.street,
      postcode: placeholder(p.city) || placeholder(p.postcode) ? postcode : p.postcode,
      city: placeholder(p.city) ? city : p.city,
      country: p.country,
      vatId: p.vatId,
    };
  };
  const number = /\d/.test(g.number)
    ? g.number
    : `${pick(r, ['RE', 'R', 'INV', 'F'])}-${g.issueDate.slice(0, 4)}-${String(Math.floor(r() * 9000) + 1000)}`;
  return { ...g, number, seller: party(g.seller, SELLERS), buyer: party(g.buyer, BUYERS) };
}
