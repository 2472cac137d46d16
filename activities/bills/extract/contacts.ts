/** The mail addresses and VAT/tax ids a bill prints, each once, in order of appearance. */
export interface Contacts {
  emails: string[];
  taxIds: string[];
}

/** The bill's mail addresses (lower-cased) and tax ids (spaces removed). */
export function readContacts(all: string): Contacts {
  const emails = [
    ...new Set(
      (all.match(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g) ?? []).map((e) =>
        e.toLowerCase(),
      ),
    ),
  ];
  const taxIds = [
    ...new Set(
      (all.match(/\b(?:[A-Z]{2}\s?\d{8,12}(?:B\d{2})?|[A-Z]{2}\d{3}\s\d{3}\s\d{3})\b/g) ?? []).map(
        (v) => v.replace(/\s/g, ''),
      ),
    ),
  ];

  return { emails, taxIds };
}
