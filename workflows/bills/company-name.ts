/**
 * A company name reduced to what identifies it: lower case, accents and punctuation dropped,
 * legal forms removed ("Coolblue B.V." and "COOLBLUE BV" are one vendor). Pure: the bill
 * processor matches vendors with it inside the workflow sandbox.
 */
const LEGAL =
  /\b(?:inc|incorporated|llc|l l c|ltd|limited|plc|corp|corporation|co|gmbh|ag|kg|ug|b v|bv|n v|nv|s a|sa|sas|s a s|sarl|s a r l|spa|s p a|srl|s r l|s l|sl|sp z o o|spolka akcyjna|spolka z ograniczona odpowiedzialnoscia|pvt ltd|pvt|private limited|pty ltd|pty|oy|ab|aps|a s|bvba|sprl)\b/g;

export function companyKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ł/g, 'l')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .replace(LEGAL, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The longest word of a name: the search term for a vendor lookup. */
export function searchTerm(name: string): string {
  const words = companyKey(name)
    .split(' ')
    .filter((w) => w.length >= 3);
  return words.sort((a, b) => b.length - a.length)[0] ?? companyKey(name);
}
