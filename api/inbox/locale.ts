import { DEFAULT_LOCALE } from '../../client/format/money';

/**
 * The locale amounts are laid out in, from the browser's Accept-Language: the most preferred
 * tag (by q) that Intl can format, else en-US. "de-DE,de;q=0.9" → de-DE (75.000,00 €). Only
 * the layout of numbers follows it; the currency is always the amount's own.
 */
export function localeFrom(acceptLanguage: string | undefined | null): string {
  if (!acceptLanguage) return DEFAULT_LOCALE;
  const tags = acceptLanguage
    .split(',')
    .slice(0, 20)
    .map((part, order) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), order };
    })
    .filter((t) => t.q > 0 && /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/.test(t.tag))
    .sort((a, b) => b.q - a.q || a.order - b.order);
  for (const t of tags) {
    try {
      const [supported] = Intl.NumberFormat.supportedLocalesOf([t.tag]);
      if (supported) return supported;
    } catch {
      // A tag Intl rejects as malformed is skipped like an unsupported one.
    }
  }
  return DEFAULT_LOCALE;
}
