import fc from 'fast-check';
import {
  findScaleDeclarations,
  type Scale,
  type ScaleDeclaration,
} from '../activities/analysis/extraction/scale';

/**
 * Issue 25 item 7: the scale-declaration scan must be linear in the page. It used to rescan
 * the whole line for every match, so a 520 KB one-line text filing full of "(in millions)"
 * took minutes in page indexing, far outside the extraction worker's time limit.
 */

// Tokens a hostile or just badly laid-out filing repeats on one line: declarations in and out of
// parentheses, prose that almost matches, numbers and blanks.
const TOKENS = [
  '(in millions) ',
  '(In thousands, except per share data) ',
  '$ in billions ',
  '($ millions) ',
  'increased in millions of units ',
  'in  thousands ',
  '( ',
  ') ',
  '1,577 ',
  '(0.04) ',
  'Net sales ',
  '\t',
  '   ',
];

const ONE_LINE_BYTES = 520_000;
// The linear scan takes tens of milliseconds on these inputs; the quadratic one took 95–165 s.
// The bound is generous for a shared, loaded test machine.
const TIME_BOUND_MS = 5_000;

function repeatToLength(unit: string, length: number): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

describe('findScaleDeclarations on long one-line inputs', () => {
  it('scans a 520 KB one-line filing of repeated declarations within the time bound', () => {
    const text = repeatToLength('(in millions) ', ONE_LINE_BYTES);
    const started = performance.now();
    const found = findScaleDeclarations(text);
    expect(performance.now() - started).toBeLessThan(TIME_BOUND_MS);
    // The cut-off last repetition, "(in millions", is a declaration too.
    expect(found.length).toBe(Math.ceil(ONE_LINE_BYTES / '(in millions) '.length));
    expect(found[0]).toMatchObject({ scale: 'millions', offset: 0, text: '(in millions' });
  });

  it('stays within the time bound for any 520 KB one-line mix of declaration-like tokens', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TOKENS), { minLength: 1, maxLength: 12 }), (unit) => {
        const text = repeatToLength(unit.join(''), ONE_LINE_BYTES);
        const started = performance.now();
        findScaleDeclarations(text);
        expect(performance.now() - started).toBeLessThan(TIME_BOUND_MS);
      }),
      { numRuns: 8 },
    );
  });

  it('finds the same declarations as the line-by-line reading on short pages with newlines', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...TOKENS, '\n', '\r\n', 'x'.repeat(130), '(\n'), {
          maxLength: 40,
        }),
        (tokens) => {
          const text = tokens.join('');
          expect(findScaleDeclarations(text)).toEqual(referenceScan(text));
        },
      ),
      { numRuns: 500 },
    );
  });
});

// The scan as it was before it was made linear, kept as the oracle for what it finds.
const SCALE_WORD = '(thousands|millions|billions)';
const DECLARATION = new RegExp(
  [
    String.raw`(?:\(|^|\b)(?:[$]\s*(?:and shares\s+)?|amounts\s+|dollars\s+|dollar amounts\s+|U\.?S\.? dollars\s+)?in\s+${SCALE_WORD}(?:\s+of\s+(?:U\.?S\.?\s+)?dollars)?([^)\n]{0,80})`,
    String.raw`\(\s*(?:[$]\s*|US\$\s*|dollars,?\s+|u\.?s\.?\s+dollars,?\s+)?${SCALE_WORD}(?:\s+of\s+(?:U\.?S\.?\s+)?dollars)?([^)\n]{0,80})`,
  ].join('|'),
  'gim',
);

function wordToScale(w: string): Scale {
  const l = w.toLowerCase();
  if (l.startsWith('thousand')) return 'thousands';
  if (l.startsWith('billion')) return 'billions';
  return 'millions';
}

function referenceScan(pageText: string): ScaleDeclaration[] {
  const out: ScaleDeclaration[] = [];
  DECLARATION.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = DECLARATION.exec(pageText)) !== null) {
    const scale = wordToScale(m[1] ?? m[3] ?? 'millions');
    const tail = (m[2] ?? m[4] ?? '').toLowerCase();
    const whole = m[0].toLowerCase();
    const lineStart = pageText.lastIndexOf('\n', m.index) + 1;
    const lineEndIdx = pageText.indexOf('\n', m.index);
    const line = pageText.slice(lineStart, lineEndIdx < 0 ? pageText.length : lineEndIdx);
    const inParens = pageText[m.index] === '(' || /\(\s*$/.test(pageText.slice(lineStart, m.index));
    const shortLine = line.replace(/\s+/g, ' ').trim().length <= 120;
    if (!inParens && !shortLine) continue;
    const exceptPerShare =
      /except\s+(?:for\s+)?(?:per[- ]share|share and per[- ]share|per[- ]unit|earnings per share|share[- ]related)/.test(
        tail,
      );
    let shareScale: Scale | null = null;
    if (/shares\s+in\s+/.test(whole) || /and shares/.test(whole)) shareScale = scale;
    const sh = /shares\s+in\s+(thousands|millions|billions)/.exec(tail);
    if (sh) shareScale = wordToScale(sh[1]!);
    if (
      /except\s+(?:for\s+)?(?:share|shares)\b/.test(tail) &&
      !/per[- ]share/.test(tail.replace(/share and per[- ]share/, ''))
    ) {
      shareScale = 'units';
    }
    if (/except\s+share and per[- ]share/.test(tail) || /except\s+(?:for\s+)?share data/.test(tail))
      shareScale = 'units';
    out.push({ scale, exceptPerShare, shareScale, offset: m.index, text: m[0].trim() });
  }
  return out;
}
