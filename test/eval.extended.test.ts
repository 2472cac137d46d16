import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  documentFile,
  readQuestions,
  runFinanceBench,
  type EvalItem,
  type EvalReport,
} from '../scripts/eval/financebench';
import { PROJECT_ROOT } from '../scripts/lib/temporal-binaries';
import { useSeededWorker } from './support/seeded-worker';
import { sharedDataset } from './support/shared-dataset';

/**
 * Short mode of the authored generalization suite (datasets/financebench-extended): a fixed
 * subset, chosen by id, covering every question type, run through the real workflow with the
 * eval's own runner. The filings are the shared dev PDFs, read in place; without them the
 * suite skips (the project's own fixtures keep CI green).
 */
const DATASET = join(PROJECT_ROOT, 'datasets', 'financebench-extended');
const { path: FILINGS, present: HAVE_FILINGS } = sharedDataset('financebench-dev', 'pdfs');

/**
 * The subset: one 10-K (75 pages, so ingestion stays short), every question type, rows the
 * current code delivers right, delivers wrong, and sends to review.
 */
const SUBSET = [
  'ext-a-0068', // line-item: a prior-year column (cost of sales, FY2022), USD millions
  'ext-a-0081', // line-item: total assets asked in USD billions, one decimal
  'ext-a-0067', // change: percent change of a figure that fell
  'ext-a-0073', // change: absolute change in USD millions, negative
  'ext-a-0079', // change: percent change of diluted EPS, negative
  'ext-a-0071', // derived-catalog: net profit margin to two decimals
  'ext-a-0075', // derived-catalog: current ratio below 1
  'ext-a-0074', // derived-defined: working capital defined inline, negative amount
  'ext-a-0077', // derived-defined: free cash flow defined inline ("less")
  'ext-a-0070', // multi-period: a 3-year sum asked in USD billions
  'ext-a-0076', // multi-period: a 3-year average of cash-flow outflows
  'ext-a-0082', // must-review: a judgment (dividend sustainability)
  'ext-a-0167', // must-review: qualitative drivers of a decline
  'ext2-0061', // line-item: a printed line the catalog does not name (gift card liabilities)
  'ext2-0067', // derived-defined: operating cash flow ratio, compiled from the question's words
  'ext2-0068', // derived-defined: EBITDA less capex, its parts defined after "where"
  'ext2-0077', // numeric-yes-no: "improve" read as a change by one reader only: review
] as const;

/**
 * Items the current code delivers wrong (kept in the suite on purpose): each is an
 * `it.failing` case that flips to a failure — to be moved back to `it` — once fixed.
 */
// ext-a-0073 (percent change delivered for a change in USD millions) and ext-a-0070 (one
// year delivered for a three-year sum) go to review since the answer-form contract.
const KNOWN_WRONG: Record<string, string> = {};

type Form = 'percent' | 'currency' | 'number' | 'text';

/** The kind of quantity a gold or delivered answer states (the unit, not the value). */
function answerForm(text: string): Form {
  const t = text.trim();
  if (!/\d/.test(t)) return 'text';
  if (/%|\bpercent\b|percentage points?/i.test(t)) return 'percent';
  if (/\$|\bUSD\b|\bdollars?\b/i.test(t)) return 'currency';
  return /^[-(]?\d[\d,]*(\.\d+)?\)?\s*(million|billion|thousand|days?|times|x)?\.?$/i.test(t)
    ? 'number'
    : 'text';
}

const SCALE: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9 };
const FIGURE =
  /(-)?(\()?\$?\s?(\d[\d,]*(?:\.\d+)?)(\))?\s*(%|percent(?:age points?)?|thousand|million|billion)?/i;

interface Figure {
  value: number;
  /** Multiplier of a printed scale word, 1 when none. */
  scale: number;
  decimals: number;
  percent: boolean;
}

function figureOf(text: string): Figure | null {
  const m = FIGURE.exec(text);
  if (!m?.[3]) return null;
  const digits = m[3].replace(/,/g, '');
  const word = (m[5] ?? '').toLowerCase();
  const sign = m[1] === '-' || (m[2] === '(' && m[4] === ')') ? -1 : 1;
  return {
    value: sign * Number(digits),
    scale: SCALE[word] ?? 1,
    decimals: digits.includes('.') ? (digits.split('.')[1] ?? '').length : 0,
    percent: word.startsWith('%') || word.startsWith('percent'),
  };
}

/**
 * An independent check of a delivered figure against the gold, by the dataset README's rule
 * (within 1% relative, or within half a unit of the gold's last printed digit), on absolute
 * values with scale words applied; a bare delivered number is read in the gold's unit.
 */
/** Every figure in a text that is a percent or an amount (years such as "FY2023" left out). */
function figuresIn(text: string): Figure[] {
  return [...text.matchAll(/-?\$?\(?\d[\d,]*(?:\.\d+)?\)?\s*(?:%|million|billion)?/g)]
    .map((m) => figureOf(m[0]))
    .filter(
      (f): f is Figure => f !== null && (f.percent || f.scale !== 1 || !Number.isInteger(f.value)),
    );
}

/**
 * A yes/no gold ("No, FY2023 21.41% vs FY2022 22.49%"): the same verdict, and every percent or
 * amount the gold cites among the delivered answer's figures.
 */
function sameVerdict(delivered: string, gold: string): boolean {
  const verdict = (t: string) => /^\s*(yes|no)\b/i.exec(t)?.[1]?.toLowerCase();
  if (verdict(delivered) === undefined || verdict(delivered) !== verdict(gold)) return false;
  const ours = figuresIn(delivered);
  return figuresIn(gold).every((g) =>
    ours.some(
      (o) =>
        o.percent === g.percent &&
        Math.abs(o.value * o.scale - g.value * g.scale) <=
          Math.max(Math.abs(g.value * g.scale) * 0.01, 0.5 * 10 ** -g.decimals * g.scale) + 1e-9,
    ),
  );
}

function sameFigure(delivered: string, gold: string): boolean {
  if (/^\s*(?:yes|no)\b/i.test(gold)) return sameVerdict(delivered, gold);
  const o = figureOf(delivered);
  const g = figureOf(gold);
  if (!o || !g || o.percent !== g.percent) return false;
  const goldValue = g.value * g.scale;
  const tolerance = Math.max(Math.abs(goldValue) * 0.01, 0.5 * 10 ** -g.decimals * g.scale);
  const candidates = o.scale === 1 ? [o.value, o.value * g.scale] : [o.value * o.scale];
  return candidates.some((v) => Math.abs(v - goldValue) <= tolerance + 1e-9);
}

describe('independent figure check', () => {
  it.each([
    ['$5,670 million', '$5.67 billion', true],
    ['$1.42 billion', '$5.67 billion', false],
    ['$7,017 million', '$1,378 million', false],
    ['-36.2%', '-$1,062 million', false],
    ['34.8%', '$479 million', false],
    ['$1.95 per share', '$1.95', true],
    ['-22.6 percentage points (45.0% in FY2018 to 22.5% in FY2019)', '-22.6%', true],
    ['-13.4%', '-13.5%', true],
    ['13.5%', '-13.5%', false],
    ['0.98', '0.98', true],
    ['1.02', '0.98', false],
    [
      'No: 21.41% (gross profit / revenue, FY2023) is not higher than 22.49% (gross profit / revenue, FY2022)',
      'No, FY2023 21.41% vs FY2022 22.49%',
      true,
    ],
    ['Yes: 21.41% is higher than 22.49%', 'No, FY2023 21.41% vs FY2022 22.49%', false],
    ['No: 21.41% is not higher than 23.49%', 'No, FY2023 21.41% vs FY2022 22.49%', false],
  ] as const)('%s against gold %s → %s', (ours, gold, same) => {
    expect(sameFigure(ours, gold)).toBe(same);
  });
});

describe('answer form of gold and delivered answers', () => {
  it.each([
    ['12.3%', 'percent'],
    ['-22.6 percentage points', 'percent'],
    ['$1,577 million', 'currency'],
    ['-$129 million', 'currency'],
    ['$1.25', 'currency'],
    ['0.13', 'number'],
    ['444.3', 'number'],
    ['1,363', 'number'],
    ['A reviewer must judge the segment mix.', 'text'],
  ] as const)('%s is a %s answer', (text, form) => {
    expect(answerForm(text)).toBe(form);
  });
});

describe('extended suite rows', () => {
  const questions = readQuestions(DATASET);

  it('covers every question type in the short-mode subset, by stable ids', () => {
    const byId = new Map(questions.map((q) => [q.financebench_id, q]));
    const types = new Set(SUBSET.map((id) => byId.get(id)?.question_type));
    expect([...types].sort()).toEqual([
      'change',
      'derived-catalog',
      'derived-defined',
      'line-item',
      'multi-period',
      'must-review',
      'numeric-yes-no',
    ]);
  });

  it('names a missing filing before ingesting anything', () => {
    const missing = join(tmpdir(), 'no-such-filings-folder');
    expect(() => documentFile(missing, 'COSTCO_2021_10K')).toThrow(
      `Documents folder ${missing} does not exist: cannot read COSTCO_2021_10K.pdf`,
    );
    const empty = mkdtempSync(join(tmpdir(), 'filings-'));
    try {
      expect(() => documentFile(empty, 'COSTCO_2021_10K')).toThrow(
        `No file for document COSTCO_2021_10K in ${empty}`,
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

const withFilings = HAVE_FILINGS ? describe : describe.skip;
if (!HAVE_FILINGS)
  console.warn(
    `eval.extended: skipped the short mode — the dev filings are not at ${FILINGS} (../shared/datasets/financebench-dev/pdfs)`,
  );

withFilings('extended suite short mode (real workflow, shared dev filings)', () => {
  const env = useSeededWorker();
  let report: EvalReport | undefined;
  let dir: string | undefined;

  beforeAll(async () => {
    // The eval's runner reads a dataset folder: one with only the subset's rows.
    const wanted = new Set<string>(SUBSET);
    const rows = readFileSync(join(DATASET, 'questions.jsonl'), 'utf8')
      .split('\n')
      .filter(
        (l) =>
          l.trim() && wanted.has((JSON.parse(l) as { financebench_id: string }).financebench_id),
      );
    dir = mkdtempSync(join(tmpdir(), 'fb-extended-'));
    writeFileSync(join(dir, 'questions.jsonl'), rows.join('\n') + '\n');
    report = await runFinanceBench({
      datasetDir: dir,
      documentsDir: FILINGS,
      ...env.deps(),
      orgId: 'eval-extended',
    });
  }, 240_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const item = (id: string): EvalItem => {
    const found = report?.items.find((i) => i.id === id);
    if (!found) throw new Error(`${id}: not in the report`);
    return found;
  };

  it('completes every question of the subset (completion 100%)', () => {
    expect(report?.items.map((i) => i.id).sort()).toEqual([...SUBSET].sort());
    expect(report?.items.filter((i) => i.outcome === 'failed')).toEqual([]);
    expect(report?.completion).toBe(1);
  });

  for (const id of SUBSET) {
    const why = KNOWN_WRONG[id];
    (why ? it.failing : it)(
      `${id}: delivered only in the form asked and right, else sent to review${why ? ` — known wrong today: ${why}` : ''}`,
      () => {
        const i = item(id);
        expect(i.outcome).not.toBe('failed');
        if (i.outcome !== 'delivered') return;
        // A must-review question delivered without a person is the wrong kind of outcome.
        const asked = i.question_type === 'must-review' ? 'review' : answerForm(i.gold);
        expect({ id, answer: i.answer, form: answerForm(i.answer ?? '') }).toEqual({
          id,
          answer: i.answer,
          form: asked,
        });
        // The eval's grade and the independent figure check must both accept it.
        expect({
          id,
          answer: i.answer,
          gold: i.gold,
          correct: i.correct,
          same: sameFigure(i.answer ?? '', i.gold),
        }).toEqual({ id, answer: i.answer, gold: i.gold, correct: true, same: true });
      },
    );
  }

  (Object.keys(KNOWN_WRONG).length > 0 ? it.failing : it)(
    'delivers no wrong answer on the subset (delivered-wrong 0)',
    () => {
      const delivered = report?.items.filter((i) => i.outcome === 'delivered') ?? [];
      expect(
        delivered
          .filter((i) => i.correct !== true || !sameFigure(i.answer ?? '', i.gold))
          .map((i) => `${i.id}: ${i.answer} (gold ${i.gold})`),
      ).toEqual([]);
      expect(report?.wrong).toBe(0);
    },
  );
});
