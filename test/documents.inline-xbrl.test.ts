import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { join } from 'node:path';
import { htmlToPages } from '../activities/documents/html-text';
import {
  hasInlineXbrl,
  MAX_OPEN_ELEMENTS,
  parseInlineXbrl,
  type InlineXbrlResult,
} from '../activities/documents/inline-xbrl';
import {
  shiftDecimal,
  transformNumber,
  transformText,
} from '../activities/documents/inline-xbrl-formats';
import { extractPages } from '../activities/documents/page-extraction';
import { FIXTURES } from './support/fixtures';
import { FactRefusalType, type InlineFact, type RefusedFact } from '../workflows/inline-fact';

/** Pure tests of the inline XBRL parser on snippets: `CS_UNIT_ONLY=1 npx jest test/documents.inline-xbrl.test.ts`. */

const NS =
  'xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" xmlns:ixt="http://www.xbrl.org/inlineXBRL/transformation/2020-02-12" xmlns:ixt-sec="http://www.sec.gov/inlineXBRL/transformation/2015-08-31" xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:xbrldi="http://xbrl.org/2006/xbrldi" xmlns:iso4217="http://www.xbrl.org/2003/iso4217" xmlns:dei="http://xbrl.sec.gov/dei/2024" xmlns:us-gaap="http://fasb.org/us-gaap/2024" xmlns:ex="http://example.com/ex" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';
const ENTITY =
  '<xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000001</xbrli:identifier>';
const RESOURCES = `
<xbrli:context id="D"><${ENTITY.slice(1)}</xbrli:entity><xbrli:period><xbrli:startDate>2024-01-01</xbrli:startDate><xbrli:endDate>2024-12-31</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:context id="D2"><${ENTITY.slice(1)}</xbrli:entity><xbrli:period><xbrli:startDate>2024-01-01</xbrli:startDate><xbrli:endDate>2024-12-31</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:context id="I"><${ENTITY.slice(1)}</xbrli:entity><xbrli:period><xbrli:instant>2024-12-31</xbrli:instant></xbrli:period></xbrli:context>
<xbrli:context id="Seg"><${ENTITY.slice(1)}<xbrli:segment><xbrldi:explicitMember dimension="us-gaap:StatementBusinessSegmentsAxis">ex:CloudMember</xbrldi:explicitMember><xbrldi:typedMember dimension="ex:ContractAxis"><ex:ContractDomain> K-7 </ex:ContractDomain></xbrldi:typedMember></xbrli:segment></xbrli:entity><xbrli:period><xbrli:instant>2024-12-31</xbrli:instant></xbrli:period></xbrli:context>
<xbrli:context id="BadDate"><${ENTITY.slice(1)}</xbrli:entity><xbrli:period><xbrli:instant>2024-02-30</xbrli:instant></xbrli:period></xbrli:context>
<xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
<xbrli:unit id="eps"><xbrli:divide><xbrli:unitNumerator><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unitNumerator><xbrli:unitDenominator><xbrli:measure>xbrli:shares</xbrli:measure></xbrli:unitDenominator></xbrli:divide></xbrli:unit>`;

function doc(body: string, hidden = ''): string {
  return `<?xml version="1.0"?><html ${NS}><head><title>t</title></head><body><div style="display:none"><ix:header><ix:hidden>${hidden}</ix:hidden><ix:resources>${RESOURCES}</ix:resources></ix:header></div>${body}</body></html>`;
}

/** A us-gaap:Revenues number in context D, USD; decimals -6 unless `attrs` sets them. */
const num = (attrs: string, text: string) =>
  `<ix:nonFraction name="us-gaap:Revenues" contextRef="D" unitRef="usd" ${attrs.includes('decimals=') ? '' : 'decimals="-6" '}${attrs}>${text}</ix:nonFraction>`;

function parsed(html: string): Extract<InlineXbrlResult, { status: 'facts' }> {
  const r = parseInlineXbrl(html);
  if (r.status !== 'facts') throw new Error(`expected facts, got ${r.status}`);
  return r;
}
const facts = (html: string): InlineFact[] => parsed(html).facts;
const refused = (html: string): RefusedFact[] => parsed(html).refused;
const one = (html: string): InlineFact => {
  const f = facts(html);
  expect(f).toHaveLength(1);
  return f[0]!;
};

describe('inline XBRL numbers', () => {
  it.each([
    [
      'scale 6 on a comma-grouped number',
      'id="a" scale="6" format="ixt:num-dot-decimal"',
      '118,254',
      '118254000000',
    ],
    [
      'a fraction at scale 6 stays exact',
      'id="a" scale="6" format="ixt:num-dot-decimal"',
      '1,234.5',
      '1234500000',
    ],
    ['sign "-" negates', 'id="a" scale="3" sign="-" format="ixt:num-dot-decimal"', '12', '-12000'],
    [
      'negative scale (percent as a ratio)',
      'id="a" scale="-2" format="ixt:num-dot-decimal"',
      '21.5',
      '0.215',
    ],
    ['the legacy numdotdecimal name', 'id="a" format="ixt:numdotdecimal"', '1,000.50', '1000.5'],
    ['num-comma-decimal', 'id="a" format="ixt:num-comma-decimal"', '1.234,56', '1234.56'],
    ['fixed-zero for a dash', 'id="a" scale="6" format="ixt:fixed-zero"', '—', '0'],
    ['the legacy zerodash', 'id="a" format="ixt:zerodash"', '-', '0'],
    ['no format: a plain decimal', 'id="a"', '42.10', '42.1'],
    ['numwordsen', 'id="a" format="ixt-sec:numwordsen"', 'twenty-five', '25'],
    ['numwordsen "no"', 'id="a" format="ixt-sec:numwordsen"', 'no', '0'],
    [
      'far beyond float precision',
      'id="a" scale="9" format="ixt:num-dot-decimal"',
      '123,456,789,012,345.678901',
      '123456789012345678901000',
    ],
  ])('%s', (_name, attrs, text, value) => {
    expect(one(doc(`<p>${num(attrs, text)}</p>`)).value).toBe(value);
  });

  it('refuses a number its format does not read, with the fact named, and keeps the others', () => {
    const r = parsed(
      doc(
        `<p>${num('id="bad" format="ixt:num-dot-decimal"', 'n/a')}</p><p>${num('id="ok"', '5')}</p>`,
      ),
    );
    expect(r.refused).toEqual([
      expect.objectContaining({ id: 'bad', type: FactRefusalType.InvalidNumber }),
    ]);
    expect(r.facts.map((f) => f.id)).toEqual(['ok']);
  });

  it('keeps decimal arithmetic exact both ways', () => {
    expect(shiftDecimal('0.000123', 3)).toBe('0.123');
    expect(shiftDecimal('12', -5)).toBe('0.00012');
    expect(shiftDecimal('-0', 4)).toBe('0');
    expect(transformNumber('ixt:num-dot-decimal', '1,2,3')).toEqual({ ok: true, value: '123' });
    expect(transformNumber('ixt:num-dot-decimal', '$5')).toMatchObject({ ok: false });
  });
});

describe('inline XBRL text formats', () => {
  it.each([
    ['ixt:date-monthname-day-year-en', 'September 28, 2024', '2024-09-28'],
    ['ixt:date-monthname-day-year-en', 'Sept. 28 2024', '2024-09-28'],
    ['ixt:datemonthdayyear', '09/28/2024', '2024-09-28'],
    ['ixt:date-monthname-day-en', 'September 28', '--09-28'],
    ['ixt:date-month-day', '9/28', '--09-28'],
    ['ixt:date-monthname-year-en', 'December 2024', '2024-12'],
    ['ixt:date-day-monthname-year-en', '28 September 2024', '2024-09-28'],
    ['ixt:fixed-true', '☒', 'true'],
    ['ixt-sec:boolballotbox', '☐', 'false'],
    ['ixt-sec:duryear', '5', 'P5Y'],
    ['ixt-sec:duryear', '2.5', 'P2Y6M'],
    ['ixt-sec:durwordsen', 'five years', 'P5Y'],
    ['ixt-sec:durwordsen', 'three-year', 'P3Y'],
    ['ixt-sec:durwordsen', 'two years and six months', 'P2Y6M'],
    ['ixt-sec:stateprovnameen', 'New York', 'NY'],
    ['ixt-sec:exchnameen', 'The Nasdaq Stock Market LLC', 'NASDAQ'],
    ['ixt-sec:exchnameen', 'New York Stock Exchange', 'NYSE'],
    ['ixt-sec:entityfilercategoryen', 'Large accelerated filer', 'Large Accelerated Filer'],
  ])('%s reads "%s" as %s', (format, text, value) => {
    expect(transformText(format, text)).toEqual({ ok: true, value });
  });

  it('keeps the text of an unsupported format and says so as an issue', () => {
    const r = parsed(
      doc(
        '<p><ix:nonNumeric name="dei:SecurityExchangeName" contextRef="D" format="ixt-sec:exchnameen" id="x">Bourse de Nowhere</ix:nonNumeric></p>',
      ),
    );
    expect(r.facts[0]?.value).toBe('Bourse de Nowhere');
    expect(r.issues).toEqual([
      expect.objectContaining({ type: 'UntransformedFormat', factId: 'x' }),
    ]);
  });
});

describe('inline XBRL aspects', () => {
  it('resolves concept namespace, unit divide, decimals and a duration period', () => {
    const f = one(
      doc(
        '<p><ix:nonFraction name="us-gaap:EarningsPerShareBasic" contextRef="D" unitRef="eps" decimals="2" id="e">6.11</ix:nonFraction></p>',
      ),
    );
    expect(f).toMatchObject({
      concept: 'us-gaap:EarningsPerShareBasic',
      conceptNs: 'http://fasb.org/us-gaap/2024',
      unit: 'iso4217:USD/xbrli:shares',
      decimals: '2',
      period: { type: 'duration', start: '2024-01-01', end: '2024-12-31' },
      dimensions: [],
      value: '6.11',
    });
  });

  it('reads explicit and typed dimension members, sorted by dimension', () => {
    const f = one(
      doc(
        '<p><ix:nonFraction name="us-gaap:Revenues" contextRef="Seg" unitRef="usd" decimals="0" id="s">7</ix:nonFraction></p>',
      ),
    );
    expect(f.period).toEqual({ type: 'instant', instant: '2024-12-31' });
    expect(f.dimensions).toEqual([
      { dimension: 'ex:ContractAxis', typedValue: 'K-7' },
      { dimension: 'us-gaap:StatementBusinessSegmentsAxis', member: 'ex:CloudMember' },
    ]);
  });

  it('resolves a prefix declared on an inner element, and refuses an undeclared one', () => {
    const r = parsed(
      doc(
        `<div xmlns:in="http://example.com/inner"><ix:nonFraction name="in:Widgets" contextRef="D" unitRef="usd" decimals="0" id="w">3</ix:nonFraction></div><p><ix:nonFraction name="nope:Widgets" contextRef="D" unitRef="usd" decimals="0" id="n">3</ix:nonFraction></p>`,
      ),
    );
    expect(r.facts[0]).toMatchObject({ id: 'w', conceptNs: 'http://example.com/inner' });
    expect(r.refused).toEqual([expect.objectContaining({ id: 'n', type: 'UnknownPrefix' })]);
  });

  it('reads hidden facts without a location, and nil facts without a value', () => {
    const r = parsed(
      doc(
        `<p><ix:nonFraction name="us-gaap:Revenues" contextRef="I" unitRef="usd" xsi:nil="true" id="nil"/></p>`,
        '<ix:nonNumeric name="dei:DocumentFiscalYearFocus" contextRef="D" id="fy">2024</ix:nonNumeric>',
      ),
    );
    expect(r.facts.find((f) => f.id === 'fy')).toMatchObject({
      hidden: true,
      location: null,
      value: '2024',
    });
    expect(r.facts.find((f) => f.id === 'nil')).toMatchObject({ value: null, hidden: false });
    expect(r.dei).toEqual({ fiscalYearFocus: '2024' });
  });

  it('locates a hidden fact where EDGAR displays it (-sec-ix-hidden)', () => {
    const r = parsed(
      doc(
        '<p>Useful lives range from <span style="-sec-ix-hidden:life">three</span> to seven years.</p>',
        '<ix:nonNumeric name="us-gaap:PropertyPlantAndEquipmentUsefulLife" contextRef="D" format="ixt-sec:duryear" id="life">3</ix:nonNumeric>',
      ),
    );
    const f = r.facts[0]!;
    expect(f).toMatchObject({ hidden: true, value: 'P3Y', displayedText: 'three' });
    expect(r.pages[f.location!.page]!.slice(f.location!.start, f.location!.end)).toBe('three');
  });

  it('refuses a fact whose context or unit is missing, and a context date that is no date', () => {
    const r = refused(
      doc(
        `<p><ix:nonFraction name="us-gaap:Revenues" contextRef="Nope" unitRef="usd" decimals="0" id="c">1</ix:nonFraction>` +
          `<ix:nonFraction name="us-gaap:Revenues" contextRef="D" unitRef="eur" decimals="0" id="u">1</ix:nonFraction>` +
          `<ix:nonFraction name="us-gaap:Revenues" contextRef="D" decimals="0" id="u2">1</ix:nonFraction>` +
          `<ix:nonFraction name="us-gaap:Revenues" contextRef="BadDate" unitRef="usd" decimals="0" id="d">1</ix:nonFraction></p>`,
      ),
    );
    expect(r.map((x) => [x.id, x.type])).toEqual([
      ['c', 'MissingContext'],
      ['u', 'MissingUnit'],
      ['u2', 'MissingUnit'],
      ['d', 'InvalidPeriod'],
    ]);
  });

  it('refuses a second fact with an id already taken (ids name facts in citations)', () => {
    const r = parsed(
      doc(`<p>${num('id="same"', '1')}</p><p>${num('id="same" decimals="0"', '2')}</p>`),
    );
    expect(r.refused.map((x) => x.type)).toEqual(['DuplicateId']);
  });
});

describe('inline XBRL continuations and exclusions', () => {
  const text = (attrs: string, body: string) =>
    `<ix:nonNumeric name="us-gaap:SegmentReportingDisclosureTextBlock" contextRef="D" id="t" ${attrs}>${body}</ix:nonNumeric>`;

  it('joins a continuation chain and leaves out excluded text', () => {
    const f = one(
      doc(
        `<p>${text('continuedAt="c1"', 'One <ix:exclude>[page 4]</ix:exclude>segment,')}</p><p><ix:continuation id="c1" continuedAt="c2">Cloud</ix:continuation></p><p><ix:continuation id="c2">and more.</ix:continuation></p>`,
      ),
    );
    expect(f.value).toBe('One segment, Cloud and more.');
  });

  it('refuses a circular chain with ContinuationCycle, and a broken one with ContinuationMissing', () => {
    expect(
      refused(
        doc(
          `<p>${text('continuedAt="a"', 'x')}</p><p><ix:continuation id="a" continuedAt="b">y</ix:continuation><ix:continuation id="b" continuedAt="a">z</ix:continuation></p>`,
        ),
      ),
    ).toEqual([expect.objectContaining({ id: 't', type: 'ContinuationCycle' })]);
    expect(refused(doc(`<p>${text('continuedAt="gone"', 'x')}</p>`))).toEqual([
      expect.objectContaining({ id: 't', type: 'ContinuationMissing' }),
    ]);
  });
});

describe('inline XBRL duplicates', () => {
  it('folds duplicates into the most precise reading, whatever their order or context id', () => {
    const r = parsed(
      doc(
        `<p>${num('id="rounded" decimals="-8" scale="9" format="ixt:num-dot-decimal"', '1.2')}</p>` +
          `<p><ix:nonFraction name="us-gaap:Revenues" contextRef="D2" unitRef="usd" decimals="-6" scale="6" format="ixt:num-dot-decimal" id="exact">1,234.5</ix:nonFraction></p>` +
          `<p>${num('id="again" scale="6" format="ixt:num-dot-decimal"', '1,234.5')}</p>`,
      ),
    );
    expect(r.facts).toHaveLength(1);
    expect(r.facts[0]).toMatchObject({ id: 'exact', value: '1234500000', decimals: '-6' });
    expect(r.facts[0]?.duplicateIds.sort()).toEqual(['again', 'rounded']);
    expect(r.issues).toEqual([]);
  });

  it('names duplicates that disagree beyond rounding', () => {
    const r = parsed(
      doc(`<p>${num('id="a" decimals="0"', '100')}</p><p>${num('id="b" decimals="0"', '101')}</p>`),
    );
    expect(r.facts).toHaveLength(1);
    expect(r.issues).toEqual([
      expect.objectContaining({ type: 'InconsistentDuplicate', factId: 'b' }),
    ]);
  });
});

describe('inline XBRL locations in the rendered text', () => {
  it('renders the same pages as the text path and points at each number as printed', () => {
    const html = doc(
      `<p>Intro</p><hr style="page-break-after:always"/><table><tr><td>Revenues</td><td>$ ${num('id="r" scale="6" format="ixt:num-dot-decimal"', '1,234')}</td><td>&#160;(<ix:nonFraction name="us-gaap:NetIncomeLoss" contextRef="D" unitRef="usd" decimals="0" sign="-" format="ixt:num-dot-decimal" id="n">  56 </ix:nonFraction>)</td></tr></table>`,
    );
    const r = parsed(html);
    expect(r.pages).toEqual(htmlToPages(html));
    for (const f of r.facts) {
      expect(f.location).not.toBeNull();
      const { page, start, end } = f.location!;
      expect(r.pages[page]!.slice(start, end)).toBe(f.displayedText);
    }
    expect(r.facts.find((f) => f.id === 'r')?.location?.page).toBe(1);
  });

  it('locates every numeric fact of the mini 10-K fixture exactly', () => {
    const r = parsed(readFileSync(join(FIXTURES, 'ixbrl', 'mini-10k.html'), 'utf8'));
    const numeric = r.facts.filter((f) => f.numeric && !f.hidden);
    expect(numeric.length).toBeGreaterThan(5);
    for (const f of numeric) {
      const { page, start, end } = f.location!;
      expect(r.pages[page]!.slice(start, end)).toBe(f.displayedText);
    }
    expect(r.dei).toEqual({
      registrantName: 'Mini Corp',
      cik: '0000999999',
      documentType: '10-K',
      fiscalYearFocus: '2024',
      fiscalPeriodFocus: 'FY',
      periodEndDate: '2024-12-31',
    });
  });
});

describe('inline XBRL bad input', () => {
  it('never throws on a filing cut anywhere, and every fact it still reads is located exactly', () => {
    const html = readFileSync(join(FIXTURES, 'ixbrl', 'mini-10k.html'), 'utf8');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: html.length }), (cut) => {
        const part = html.slice(0, cut);
        const r = parseInlineXbrl(part);
        expect(r.pages).toEqual(htmlToPages(part));
        if (r.status !== 'facts') return;
        for (const f of r.facts) {
          if (!f.location || !f.numeric) continue;
          const { page, start, end } = f.location;
          expect(r.pages[page]!.slice(start, end)).toBe(f.displayedText);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('refuses facts still open when a truncated file ends, keeping those before', () => {
    const html = doc(`<p>${num('id="whole"', '1')}</p><p>${num('id="cut"', '2')}`).replace(
      /<\/ix:nonFraction><\/p><\/body><\/html>$/,
      '',
    );
    const r = parsed(html.slice(0, html.lastIndexOf('2') + 1));
    expect(r.facts.map((f) => f.id)).toEqual(['whole']);
    expect(r.refused).toEqual([expect.objectContaining({ id: 'cut', type: 'Unclosed' })]);
  });

  it('reads a file with more facts than the limit as text only, with the reason', () => {
    const html = doc(
      `<p>${Array.from({ length: 30 }, (_, i) => num(`id="f${i}"`, String(i))).join(' ')}</p>`,
    );
    const r = parseInlineXbrl(html, { maxFacts: 10, maxTextValue: 100 });
    expect(r).toMatchObject({ status: 'text-only', factElements: 30 });
    expect(r.status === 'text-only' && r.reason).toContain('30 inline XBRL facts');
    expect(r.pages).toEqual(htmlToPages(html));
  });

  it('treats HTML without the inline XBRL namespace as plain HTML', async () => {
    const html = '<html><body><p>ix:nonFraction is only text here</p></body></html>';
    expect(hasInlineXbrl(html)).toBe(false);
    const out = await extractPages('text/html', new TextEncoder().encode(html), 0, () => undefined);
    expect(out.inlineXbrl).toBeUndefined();
    expect(out.pages[0]?.text).toBe('ix:nonFraction is only text here');
  });

  it('refuses facts nested past the bound, in linear time', () => {
    const n = 20_000;
    const open = '<ix:nonNumeric name="us-gaap:Note" contextRef="D">'.repeat(n);
    const started = Date.now();
    const r = parsed(doc(`<div>${open}${'text '.repeat(n)}${'</ix:nonNumeric>'.repeat(n)}</div>`));
    expect(Date.now() - started).toBeLessThan(5_000);
    // The ones read are duplicates of each other (one concept, one context): one fact.
    expect(r.facts).toHaveLength(1);
    expect(r.facts[0]?.duplicateIds).toHaveLength(MAX_OPEN_ELEMENTS - 1);
    expect(r.refused).toHaveLength(n - MAX_OPEN_ELEMENTS);
    expect(r.refused[0]?.type).toBe('TooDeeplyNested');
  });

  it('survives hostile markup: deep nesting, self-closed facts, unclosed ix elements', () => {
    const deep = `${'<div>'.repeat(20_000)}${num('id="deep"', '9')}${'</div>'.repeat(20_000)}`;
    const r = parsed(
      doc(
        `${deep}<p><ix:nonFraction name="us-gaap:Revenues" contextRef="D" unitRef="usd" id="self"/>after</p><p><ix:exclude>never closed</p>`,
      ),
    );
    expect(r.facts.find((f) => f.id === 'deep')?.value).toBe('9');
    expect(r.refused.find((f) => f.id === 'self')?.type).toBe('InvalidNumber'); // empty, not nil
  });
});
