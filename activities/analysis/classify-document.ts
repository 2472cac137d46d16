/**
 * Document type from the cover page: SEC form markers and regulatory report titles. Only
 * the first pages are read, where filings state what they are.
 */
const MARKERS: { type: string; re: RegExp }[] = [
  { type: '10-K', re: /\bFORM\s+10-K\b/i },
  { type: '10-Q', re: /\bFORM\s+10-Q\b/i },
  { type: '8-K', re: /\bFORM\s+8-K\b/i },
  { type: '20-F', re: /\bFORM\s+20-F\b/i },
  { type: 'Pillar 3', re: /\bPillar\s*3\b/i },
  {
    type: 'earnings release',
    re: /\b(?:reports?|announces?)\b[^\n]{0,80}\b(?:quarter|fourth[- ]quarter|full[- ]year)\b[^\n]{0,40}\bresults\b/i,
  },
  { type: 'annual report', re: /\bannual report\b/i },
];

export function classifyDocument(pages: { page: number; text: string }[]): {
  type: string | null;
  page: number | null;
  index: number;
  match: string;
} {
  for (const pg of pages.slice(0, 3)) {
    for (const m of MARKERS) {
      const hit = m.re.exec(pg.text);
      if (hit) return { type: m.type, page: pg.page, index: hit.index, match: hit[0] };
    }
  }
  return { type: null, page: null, index: -1, match: '' };
}
