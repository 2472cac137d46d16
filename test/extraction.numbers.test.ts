import {
  add,
  dec,
  div,
  mul,
  nthRoot,
  round,
  shift10,
  sub,
  toFixed,
  toString,
} from '../workflows/analysis/decimal-core';
import { parsePrintedNumber, splitRow } from '../activities/analysis/extraction/numbers';
import {
  convertScale,
  findScaleDeclarations,
  parseRequestedScale,
} from '../activities/analysis/extraction/scale';

describe('decimal', () => {
  it('adds money exactly where floats drift', () => {
    expect(toString(add(dec('0.1'), dec('0.2')))).toBe('0.3');
    expect(toString(sub(dec('1577'), dec('1577.25')))).toBe('-0.25');
    expect(toString(mul(dec('12.5'), dec('-4')))).toBe('-50');
  });
  it('divides and rounds half away from zero', () => {
    expect(toString(round(div(dec('2'), dec('3'), 10), 4))).toBe('0.6667');
    expect(toString(round(dec('-2.345'), 2))).toBe('-2.35');
    expect(toFixed(dec('5409'), 2)).toBe('5409.00');
    expect(toFixed(dec('0.045'), 1)).toBe('0.0');
    expect(toFixed(dec('1.05'), 1)).toBe('1.1');
  });
  it('shifts scale exactly', () => {
    expect(toString(shift10(dec('6489'), 6))).toBe('6489000000');
    expect(toString(shift10(dec('1'), -3))).toBe('0.001');
  });
  it('takes n-th roots', () => {
    expect(toString(round(nthRoot(dec('1.21'), 2), 10))).toBe('1.1');
    expect(toString(round(nthRoot(dec('8'), 3), 6))).toBe('2');
  });
  it('rejects malformed input and division by zero', () => {
    expect(() => dec('1,577')).toThrow();
    expect(() => div(dec('1'), dec('0'))).toThrow();
  });
});

describe('parsePrintedNumber', () => {
  it.each([
    ['1,577', '1577', false],
    ['(1,577)', '-1577', true],
    ['-1,577', '-1577', true],
    ['1577.0', '1577', false],
    ['$ 6,489', '6489', false],
    ['$(0.04)', '-0.04', true],
    ['(0.04)', '-0.04', true],
  ])('%s -> %s', (raw, value, negative) => {
    const p = parsePrintedNumber(raw);
    expect(p?.value).toBe(value);
    expect(p?.negative).toBe(negative);
  });
  it('reads percentages and dashes', () => {
    expect(parsePrintedNumber('12.5%')).toMatchObject({ value: '12.5', percent: true });
    expect(parsePrintedNumber('(1.2)%')).toMatchObject({ value: '-1.2', percent: true });
    expect(parsePrintedNumber('—')).toMatchObject({ value: '0', dash: true });
    expect(parsePrintedNumber('–')).toMatchObject({ value: '0', dash: true });
  });
  it('refuses words and malformed groupings', () => {
    expect(parsePrintedNumber('Note')).toBeNull();
    expect(parsePrintedNumber('1,57')).toBeNull();
    expect(parsePrintedNumber('2019a')).toBeNull();
  });
});

describe('splitRow', () => {
  it('separates label and value cells with exact offsets', () => {
    const line = 'Total net revenues   $ 6,489   $ 7,500   $ 7,017';
    const r = splitRow(line);
    expect(r.label).toBe('Total net revenues');
    expect(r.cells.map((c) => c.parsed.value)).toEqual(['6489', '7500', '7017']);
    for (const c of r.cells) expect(line.slice(c.start, c.end)).toBe(c.text);
  });
  it('keeps numbers that belong to the label', () => {
    const r = splitRow('Common stock, $0.01 par value, 500,000,000 shares authorized   2   2');
    expect(r.label).toBe('Common stock, $0.01 par value, 500,000,000 shares authorized');
    expect(r.cells).toHaveLength(2);
    expect(splitRow('4.50% Senior notes due 2025').cells).toHaveLength(0);
  });
  it('drops footnote markers glued to the label', () => {
    const r = splitRow('Share-based compensation expense (2)   166   209   176');
    expect(r.cells.map((c) => c.parsed.value)).toEqual(['166', '209', '176']);
  });
  it('handles a $ glued to the previous cell and dashes', () => {
    const r = splitRow('Revenues   $ 44,538 $ 37,403 $ 39,117');
    expect(r.cells.map((c) => c.parsed.value)).toEqual(['44538', '37403', '39117']);
    expect(
      splitRow('Loss on extinguishment of debt   —   40   12').cells.map((c) => c.parsed.value),
    ).toEqual(['0', '40', '12']);
  });
});

describe('scale', () => {
  it('finds header declarations', () => {
    const d = findScaleDeclarations(
      'CONSOLIDATED STATEMENTS\n(In millions, except per share data)\n2019   2018',
    );
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ scale: 'millions', exceptPerShare: true });
    expect(
      findScaleDeclarations(
        'Year Ended December 31 (Millions, except per share amounts)   2022   2021',
      )[0]?.scale,
    ).toBe('millions');
    expect(findScaleDeclarations('($ in thousands)')[0]?.scale).toBe('thousands');
    expect(
      findScaleDeclarations('$ and shares in millions, except per share amounts')[0],
    ).toMatchObject({ scale: 'millions', shareScale: 'millions' });
  });
  it('finds a statement or note heading that opens with the scale word', () => {
    expect(
      findScaleDeclarations(
        'CONSOLIDATED STATEMENTS OF FINANCIAL POSITION\nMillions, Except Share and Per Share Amounts as of December 31,   2024   2023',
      )[0],
    ).toMatchObject({ scale: 'millions', exceptPerShare: true });
    expect(
      findScaleDeclarations('Millions, for the Years Ended December 31,   2024   2023')[0]?.scale,
    ).toBe('millions');
    expect(
      findScaleDeclarations('12. Accounts Payable\nMillions   Dec.31,\n2024   Dec.31,')[0]?.scale,
    ).toBe('millions');
    // Prose that starts with the word is no declaration.
    expect(findScaleDeclarations('Millions of customers visited our stores last year.')).toEqual(
      [],
    );
  });
  it('converts exactly', () => {
    expect(convertScale('6489', 'millions', 'units')).toBe('6489000000');
    expect(convertScale('59268', 'millions', 'billions')).toBe('59.268');
    expect(convertScale('1234567', 'thousands', 'millions')).toBe('1234.567');
  });
  it('reads the scale a question asks for', () => {
    expect(parseRequestedScale('Answer in USD millions.')).toBe('millions');
    expect(parseRequestedScale('(in USD billions)')).toBe('billions');
    expect(parseRequestedScale('Answer in USD thousands')).toBe('thousands');
    expect(parseRequestedScale('round to two decimals')).toBeNull();
  });
});
