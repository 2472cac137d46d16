/**
 * Label-free consistency probe for the deterministic extraction engine. Reads every dev
 * filing, asks for every catalog metric for each fiscal year the filing plausibly covers
 * (explicitly and through a natural question), then reports what cannot all be true:
 *
 *  - cross-filing disagreements: the same (company, metric, FY) auto-answered (≥ 0.85)
 *    from two filings, or through two request paths, with values more than 0.5% apart;
 *  - within-filing identity violations at ≥ 0.85: gross profit = revenue − cost of revenue,
 *    total assets = total liabilities + total equity (± non-controlling interests),
 *    current assets ≤ total assets, current liabilities ≤ total liabilities, outflows
 *    (capex, dividends, buybacks) printed as outflows.
 *
 * The same checks run again at the 0.70 answer floor (secondary tier), printing only the
 * findings that involve a reading below 0.85. No gold labels: every finding is a lead to
 * inspect, printed with its page and line. Known legitimate findings on the dev filings:
 * Corning's 2022 10-K reclassified pre-tax income for FY2020/FY2021; Corning's EPS is on
 * income available to common holders (preferred dividends), so NI / shares ≠ EPS.
 * Extracted pages are cached under the OS temp dir.
 *
 *   npx tsx scripts/extraction-consistency.ts [--only=<doc name part>] [--quiet] [--dump=<file.jsonl>]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  answerQuestion,
  extractMetric,
  getMetric,
  METRICS,
  type ExtractMetricResult,
} from '../activities/analysis/extraction';
import { extractPdfText } from '../activities/documents/pdf-text';

const DATASET =
  process.env.FINANCEBENCH_DIR ?? path.resolve(__dirname, '../../shared/datasets/financebench-dev');
const CACHE_DIR = path.join(os.tmpdir(), 'extraction-consistency-pages');
const AUTO = 0.85;
/** The platform's answer floor: weaker readings are never offered. */
const FLOOR = 0.7;
const TOLERANCE = 0.005;

interface DocMeta {
  doc_name: string;
  company: string;
  doc_period: number;
  doc_type: string;
}

type Pages = { page: number; text: string }[];

interface Reading {
  doc: string;
  company: string;
  metric: string;
  fy: number;
  /** explicit = extractMetric; given = answerQuestion with metric/period; natural = question text. */
  path: 'explicit' | 'given' | 'natural';
  value: number;
  confidence: number;
  page: number;
  quote: string;
  label: string;
  header: string;
  printed: string;
  statement?: string;
  alternatives?: string[];
}

async function loadPages(doc: string): Promise<Pages> {
  const pdf = path.join(DATASET, 'pdfs', `${doc}.pdf`);
  const stat = fs.statSync(pdf);
  const cache = path.join(CACHE_DIR, `${doc}.${stat.size}.json`);
  if (fs.existsSync(cache)) return JSON.parse(fs.readFileSync(cache, 'utf8')) as Pages;
  const r = await extractPdfText(new Uint8Array(fs.readFileSync(pdf)));
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  fs.writeFileSync(cache, JSON.stringify(r.pages));
  return r.pages;
}

function toUnits(amount: string, scale: string): number {
  const e = { units: 0, thousands: 3, millions: 6, billions: 9 }[scale] ?? 0;
  return Number(amount) * 10 ** e;
}

function differ(a: number, b: number): boolean {
  const m = Math.max(Math.abs(a), Math.abs(b));
  if (m === 0) return false;
  return Math.abs(a - b) / m > TOLERANCE;
}

function fmt(v: number): string {
  if (Math.abs(v) >= 1e5)
    return `${(v / 1e6).toLocaleString('en-US', { maximumFractionDigits: 3 })}M`;
  return String(v);
}

function show(r: Reading): string {
  return `${r.doc} [${r.path}] ${fmt(r.value)} conf ${r.confidence} p${r.page} "${r.label}" col "${r.header}" | ${r.quote.trim().slice(0, 150)}`;
}

const PROBE_METRICS = METRICS.filter((m) => m.statement !== 'capital').map((m) => m.id);

function naturalQuestion(metricId: string, fy: number): string {
  const def = getMetric(metricId)!;
  const phrase = def.questionPhrases[0] ?? def.name.toLowerCase();
  const unit =
    def.kind === 'money'
      ? ' (in USD millions)'
      : def.kind === 'per_share'
        ? ' (in USD per share)'
        : def.kind === 'count'
          ? ' (in millions)'
          : '';
  return `What is the FY${fy} ${phrase}${unit}?`;
}

function fromExtract(
  r: ExtractMetricResult,
  base: Omit<Reading, 'value' | 'confidence' | 'page' | 'quote' | 'label' | 'header' | 'printed'>,
): Reading | null {
  if (r.status !== 'found') return null;
  return {
    ...base,
    value: toUnits(r.value.amount, r.value.scale),
    confidence: r.confidence,
    page: r.citation.page,
    quote: r.citation.quote,
    label: r.matchedLabel,
    header: r.periodHeader,
    printed: r.value.printed,
    statement: r.statement,
    alternatives: r.alternatives.map(
      (a) =>
        `p${a.page} "${a.label}" ${a.amount ?? '-'} [${a.periodHeader ?? '-'}] ${a.confidence} ${a.note}`,
    ),
  };
}

interface Figures {
  floor: number;
  answered: number;
  answeredExplicit: number;
  pathDisagreements: number;
  crossDisagreements: number;
  crossCompared: number;
  violations: number;
  checks: number;
}

function analyze(readings: Reading[], docs: DocMeta[], floor: number, print: boolean): Figures {
  // The secondary tier prints only findings that involve a reading below the auto tier.
  let printing = print;
  const log = (s: string) => {
    if (printing) console.log(s);
  };
  const focus = (rs: (Reading | undefined)[]) => {
    printing = print && (floor >= AUTO || rs.some((r) => r && r.confidence < AUTO));
  };
  const auto = readings.filter((r) => r.confidence >= floor);
  const autoExplicit = auto.filter((r) => r.path === 'explicit');
  log(
    `readings: ${readings.length}; at ≥${floor}: ${auto.length} (explicit ${autoExplicit.length}, given ${auto.filter((r) => r.path === 'given').length}, natural ${auto.filter((r) => r.path === 'natural').length})`,
  );

  // --- request-path disagreements within one filing
  let pathDisagreements = 0;
  const byDocKey = new Map<string, Reading[]>();
  for (const r of auto) {
    const k = `${r.doc}|${r.metric}|${r.fy}`;
    byDocKey.set(k, [...(byDocKey.get(k) ?? []), r]);
  }
  for (const [k, rs] of byDocKey) {
    if (rs.some((r) => rs.some((s) => differ(r.value, s.value)))) {
      pathDisagreements++;
      focus(rs);
      log(`\n## PATH DISAGREEMENT ${k}`);
      for (const r of rs) log(`   ${show(r)}`);
    }
  }

  // --- cross-filing disagreements (explicit path, one reading per filing)
  let crossDisagreements = 0;
  const byCompanyKey = new Map<string, Reading[]>();
  for (const r of autoExplicit) {
    const k = `${r.company}|${r.metric}|FY${r.fy}`;
    byCompanyKey.set(k, [...(byCompanyKey.get(k) ?? []), r]);
  }
  let crossCompared = 0;
  for (const [k, rs] of [...byCompanyKey].sort()) {
    if (rs.length < 2) continue;
    crossCompared++;
    const distinct = rs.filter((r, i) => rs.slice(0, i).every((s) => differ(r.value, s.value)));
    if (distinct.length > 1) {
      crossDisagreements++;
      focus(rs);
      log(`\n## CROSS-FILING DISAGREEMENT ${k}`);
      for (const r of rs) log(`   ${show(r)}`);
    }
  }

  // --- within-filing identities (explicit path)
  let violations = 0;
  let checks = 0;
  const get = (doc: string, metric: string, fy: number) =>
    autoExplicit.find((r) => r.doc === doc && r.metric === metric && r.fy === fy);
  const violation = (title: string, rs: (Reading | undefined)[], detail: string) => {
    violations++;
    focus(rs);
    log(`\n## IDENTITY ${title}: ${detail}`);
    for (const r of rs) if (r) log(`   ${r.metric}: ${show(r)}`);
  };
  for (const d of docs) {
    for (const fy of [d.doc_period, d.doc_period - 1, d.doc_period - 2]) {
      const g = (m: string) => get(d.doc_name, m, fy);
      const tag = `${d.doc_name} FY${fy}`;
      const rev = g('revenue');
      const cor = g('cost_of_revenue');
      const gp = g('gross_profit');
      if (rev && cor && gp) {
        checks++;
        if (differ(rev.value - cor.value, gp.value))
          violation(
            tag,
            [rev, cor, gp],
            `revenue − cost ${fmt(rev.value - cor.value)} ≠ gross profit ${fmt(gp.value)}`,
          );
      }
      if (gp && rev) {
        checks++;
        if (gp.value > rev.value) violation(tag, [gp, rev], 'gross profit > revenue');
      }
      const ta = g('total_assets');
      const tl = g('total_liabilities');
      const te = g('total_equity');
      if (ta && tl && te) {
        checks++;
        const gap = ta.value - tl.value - te.value;
        // Non-controlling interests and mezzanine equity sit between the two totals.
        if (differ(ta.value, tl.value + te.value) && (gap < 0 || gap / ta.value > 0.1))
          violation(
            tag,
            [ta, tl, te],
            `assets ${fmt(ta.value)} vs liabilities + equity ${fmt(tl.value + te.value)}`,
          );
      }
      const tca = g('total_current_assets');
      if (tca && ta) {
        checks++;
        if (tca.value > ta.value * (1 + TOLERANCE))
          violation(tag, [tca, ta], 'current assets > total assets');
      }
      const tcl = g('total_current_liabilities');
      if (tcl && tl) {
        checks++;
        if (tcl.value > tl.value * (1 + TOLERANCE))
          violation(tag, [tcl, tl], 'current liabilities > total liabilities');
      }
      for (const part of ['cash', 'inventory', 'accounts_receivable'] as const) {
        const p = g(part);
        if (p && tca) {
          checks++;
          if (p.value > tca.value * (1 + TOLERANCE))
            violation(tag, [p, tca], `${part} > total current assets`);
        }
      }
      for (const part of ['accounts_payable'] as const) {
        const p = g(part);
        if (p && tcl) {
          checks++;
          if (p.value > tcl.value * (1 + TOLERANCE))
            violation(tag, [p, tcl], `${part} > total current liabilities`);
        }
      }
      for (const part of ['ppe_net', 'long_term_debt'] as const) {
        const p = g(part);
        if (p && ta) {
          checks++;
          if (p.value > ta.value) violation(tag, [p, ta], `${part} > total assets`);
        }
      }
      const oi = g('operating_income');
      if (oi && rev) {
        checks++;
        if (oi.value > rev.value) violation(tag, [oi, rev], 'operating income > revenue');
      }
      const ni = g('net_income');
      if (ni && rev) {
        checks++;
        if (Math.abs(ni.value) > rev.value) violation(tag, [ni, rev], '|net income| > revenue');
      }
      const eb = g('eps_basic');
      const ed = g('eps_diluted');
      if (eb && ed) {
        checks++;
        if (ed.value > eb.value + 0.005 && eb.value > 0)
          violation(tag, [eb, ed], 'diluted EPS > basic EPS');
      }
      const sb = g('shares_basic');
      const sd = g('shares_diluted');
      if (sb && sd) {
        checks++;
        if (sd.value < sb.value * (1 - TOLERANCE))
          violation(tag, [sb, sd], 'diluted shares < basic');
      }
      if (ni && sb && eb) {
        checks++;
        const implied = ni.value / sb.value;
        if (Math.abs(implied - eb.value) > Math.max(0.05, Math.abs(eb.value) * 0.1))
          violation(
            tag,
            [ni, sb, eb],
            `net income / basic shares ${implied.toFixed(2)} ≠ basic EPS`,
          );
      }
      for (const out of ['capex', 'dividends_paid', 'share_repurchases'] as const) {
        const r = g(out);
        if (!r) continue;
        checks++;
        if (!/\(|^-|^\$?\s*-|—|–/.test(r.printed.trim()) && r.value !== 0)
          violation(tag, [r], `${out} printed as ${r.printed}, not as an outflow`);
      }
    }
  }

  return {
    floor,
    answered: auto.length,
    answeredExplicit: autoExplicit.length,
    pathDisagreements,
    crossDisagreements,
    crossCompared,
    violations,
    checks,
  };
}

async function main(): Promise<void> {
  const docsPath = path.join(DATASET, 'documents.jsonl');
  if (!fs.existsSync(docsPath)) {
    console.log(`extraction-consistency: dataset not found at ${DATASET}; skipping.`);
    return;
  }
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
  const quiet = process.argv.includes('--quiet');
  const docs = fs
    .readFileSync(docsPath, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as DocMeta)
    .filter((d) => fs.existsSync(path.join(DATASET, 'pdfs', `${d.doc_name}.pdf`)))
    .filter((d) => !only || d.doc_name.includes(only));

  const readings: Reading[] = [];
  for (const d of docs) {
    const pages = await loadPages(d.doc_name);
    for (const metric of PROBE_METRICS) {
      for (const fy of [d.doc_period, d.doc_period - 1, d.doc_period - 2]) {
        const base = { doc: d.doc_name, company: d.company, metric, fy };
        const ex = extractMetric({
          pages,
          metric,
          period: { fiscalYear: fy },
          docPeriod: d.doc_period,
        });
        const r1 = fromExtract(ex, { ...base, path: 'explicit' });
        if (r1) readings.push(r1);
        for (const mode of ['given', 'natural'] as const) {
          const a = answerQuestion(
            mode === 'given'
              ? {
                  question: `What is the FY${fy} value?`,
                  pages,
                  docPeriod: d.doc_period,
                  metric,
                  period: `FY${fy}`,
                }
              : { question: naturalQuestion(metric, fy), pages, docPeriod: d.doc_period },
          );
          if (a.status !== 'answered' || a.inputs.length !== 1) continue;
          const i = a.inputs[0]!;
          if (i.metric !== metric) {
            if (mode === 'natural' && a.confidence >= AUTO)
              console.log(`!! natural question for ${metric} mapped to ${i.metric}: ${d.doc_name}`);
            continue;
          }
          readings.push({
            ...base,
            path: mode,
            value: Number(a.value),
            confidence: a.confidence,
            page: i.citation.page,
            quote: i.citation.quote,
            label: i.matchedLabel,
            header: i.period,
            printed: i.printed,
          });
        }
      }
    }
  }

  const dump = process.argv.find((a) => a.startsWith('--dump='))?.slice(7);
  if (dump)
    fs.writeFileSync(
      dump,
      readings
        .filter((r) => r.path === 'explicit')
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    );
  const figures = [analyze(readings, docs, AUTO, true)];
  if (!quiet) {
    console.log(`\n================ secondary tier: answered at ≥${FLOOR} ================`);
  }
  figures.push(analyze(readings, docs, FLOOR, !quiet));
  console.log('\n================ summary ================');
  console.log(
    `filings: ${docs.length}; metrics probed: ${PROBE_METRICS.length}; readings: ${readings.length}`,
  );
  for (const f of figures)
    console.log(
      `at ≥${f.floor}: answered ${f.answered} (explicit ${f.answeredExplicit}); request-path disagreements ${f.pathDisagreements}; cross-filing disagreements ${f.crossDisagreements} of ${f.crossCompared} keys; identity violations ${f.violations} of ${f.checks} checks`,
    );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
