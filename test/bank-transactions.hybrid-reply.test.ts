import {
  agrees,
  buildClassificationPrompt,
  parseClassificationReply,
  replyTokenBudget,
} from '../agents/bank_transaction_processor/hybrid';
import { DEFAULT_POLICY, decide, evidenceOf } from '../agents/bank_transaction_processor/classify';

/**
 * The hybrid step's pure parts: which lines are thin (a candidate), what the prompt carries
 * (and what it must not), and the strict reply parser — anything it cannot read is unsure.
 */
const CHART = [
  { code: '6200', name: 'Office supplies' },
  { code: '6400', name: 'Travel' },
];
const CODES = new Set(CHART.map((a) => a.code));

describe('thin candidates', () => {
  const ctx = (rows: Parameters<typeof evidenceOf>[0]) => ({
    evidence: evidenceOf(rows),
    rules: [],
    vendors: new Map<string, string>(),
    policy: DEFAULT_POLICY,
  });

  it('names the single account of a thin pattern, still asked', () => {
    const d = decide(
      { merchantKey: 'fuel co', cardKey: '1111' },
      ctx([{ merchantKey: 'fuel co', cardKey: '1111', accountId: 'fuel', count: 2 }]),
    );
    expect(d).toEqual({
      kind: 'ask',
      reason: 'thin: 2 resolution(s) for this card',
      thinCandidate: 'fuel',
    });
  });

  it('gives no candidate to new, ambiguous, multi-purpose or minority patterns', () => {
    const rows = [
      { merchantKey: 'hardware', cardKey: '1111', accountId: 'tools', count: 1 },
      { merchantKey: 'hardware', cardKey: '1111', accountId: 'stationery', count: 1 },
      { merchantKey: 'megastore', cardKey: '1111', accountId: 'a', count: 1 },
      { merchantKey: 'megastore', cardKey: '2222', accountId: 'b', count: 3 },
      { merchantKey: 'megastore', cardKey: '3333', accountId: 'c', count: 3 },
      { merchantKey: 'cafe', cardKey: '1111', accountId: 'meals', count: 1 },
      { merchantKey: 'cafe', cardKey: '2222', accountId: 'catering', count: 20 },
    ];
    for (const line of [
      { merchantKey: 'never seen', cardKey: '1111' },
      { merchantKey: 'hardware', cardKey: '1111' },
      { merchantKey: 'megastore', cardKey: '1111' },
      { merchantKey: 'cafe', cardKey: '1111' },
      // Resolved on another card only: nothing for this card.
      { merchantKey: 'cafe', cardKey: '9999' },
    ]) {
      const d = decide(line, ctx(rows));
      expect(d.kind).toBe('ask');
      expect(d).not.toHaveProperty('thinCandidate');
    }
  });
});

describe('the prompt', () => {
  const prompt = buildClassificationPrompt(CHART, [
    { date: '2026-03-02', amountMinor: '1250', currency: 'GBP', merchant: 'PAPER "CO" 12' },
    { date: '2026-03-03', amountMinor: '-900', currency: 'GBP', merchant: 'RAIL' },
  ]);

  it('carries the chart and each line as data, numbered, with the reply form', () => {
    expect(prompt).toContain('"6200": "Office supplies"');
    expect(prompt).toContain('"6400": "Travel"');
    expect(prompt).toContain(
      '{"line":1,"date":"2026-03-02","amount":"12.50","currency":"GBP","merchant":"PAPER \\"CO\\" 12"}',
    );
    expect(prompt).toContain('{"line":2,"date":"2026-03-03","amount":"-9.00"');
    expect(prompt).toContain('{"answers":[{"line":1,"code":');
    expect(prompt).toContain('"unsure"');
  });

  it('bounds the reply to the lines sent', () => {
    expect(replyTokenBudget(100)).toBe(64 + 1600);
    expect(replyTokenBudget(1)).toBeLessThan(replyTokenBudget(2));
  });
});

describe('the reply parser', () => {
  it('reads one code or unsure per line, in the chart only', () => {
    const r = parseClassificationReply(
      JSON.stringify({
        answers: [
          { line: 1, code: '6200' },
          { line: 2, code: 'UNSURE' },
          { line: 3, code: '9999' },
        ],
      }),
      4,
      CODES,
    );
    expect(r.malformed).toBeNull();
    expect(r.answers).toEqual([
      { kind: 'code', code: '6200' },
      { kind: 'unsure', why: 'unsure' },
      { kind: 'unsure', why: 'not in the chart' },
      { kind: 'unsure', why: 'no answer' },
    ]);
  });

  it('tolerates one json fence, and makes two different answers for a line unsure', () => {
    const r = parseClassificationReply(
      '```json\n{"answers":[{"line":1,"code":"6200"},{"line":1,"code":"6400"},{"line":2,"code":"6400"},{"line":2,"code":"6400"}]}\n```',
      2,
      CODES,
    );
    expect(r.malformed).toBeNull();
    expect(r.answers).toEqual([
      { kind: 'unsure', why: 'conflicting' },
      { kind: 'code', code: '6400' },
    ]);
  });

  it.each([
    ['prose', 'Line 1 is office supplies (6200).'],
    ['prose around JSON', 'Here you go: {"answers":[{"line":1,"code":"6200"}]}'],
    ['extra keys', '{"answers":[{"line":1,"code":"6200","confidence":0.9}]}'],
    ['a missing list', '{"line":1,"code":"6200"}'],
    ['a line out of range', '{"answers":[{"line":1,"code":"6200"},{"line":3,"code":"6400"}]}'],
    ['a string line number', '{"answers":[{"line":"1","code":"6200"}]}'],
    ['nothing', ''],
  ])('makes every line unsure on a malformed reply: %s', (_, text) => {
    const r = parseClassificationReply(text, 2, CODES);
    expect(r.malformed).not.toBeNull();
    expect(r.answers).toEqual([
      { kind: 'unsure', why: 'no answer' },
      { kind: 'unsure', why: 'no answer' },
    ]);
  });

  it('agrees only when the code is the candidate', () => {
    expect(agrees({ kind: 'code', code: '6200' }, '6200')).toBe(true);
    expect(agrees({ kind: 'code', code: '6400' }, '6200')).toBe(false);
    expect(agrees({ kind: 'unsure', why: 'unsure' }, '6200')).toBe(false);
  });
});
