/**
 * Dev check for the deterministic extraction engine: runs answerQuestion over the
 * FinanceBench dev questions, reading the real filings through pdf-text.ts, and prints
 * parsed request, answer, gold, cited page vs gold page, and a verdict per question.
 * Not a test: it is how the engine is tuned. Skips when the dataset is absent.
 *
 *   npx tsx scripts/extraction-dev-check.ts [--only=<substring of doc name>] [--verbose]
 */
import fs from 'node:fs';
import path from 'node:path';
import { answerQuestion, type AnswerResult } from '../activities/analysis/extraction';
import { extractPdfText } from '../activities/documents/pdf-text';

const DATASET =
  process.env.FINANCEBENCH_DIR ?? path.resolve(__dirname, '../../shared/datasets/financebench-dev');

interface Question {
  financebench_id: string;
  doc_name: string;
  question_type: string;
  question: string;
  answer: string;
  evidence: { evidence_page_num: number; doc_name: string }[];
}

interface DocMeta {
  doc_name: string;
  doc_period: number;
}

type Verdict = 'right' | 'wrong' | 'abstained' | 'answered_textual_gold';

/** The gold's first number, with its decimal places ("$5409.00" -> 5409, 2 dp). */
function goldNumber(gold: string): { value: number; dp: number } | null {
  const m = /-?\$?\s*\(?(-?\d[\d,]*(?:\.\d+)?)\)?\s*%?/.exec(gold.replace(/\s+/g, ' '));
  if (!m) return null;
  const raw = m[1]!.replace(/,/g, '');
  const dp = raw.includes('.') ? raw.split('.')[1]!.length : 0;
  return { value: Number(raw), dp };
}

/** A gold that is one figure (optionally with $ and %), not a sentence. */
function isNumericGold(gold: string): boolean {
  return /^\s*-?\$?\s*-?[\d,]+(?:\.\d+)?\s*%?\s*$/.test(gold);
}

function judge(a: AnswerResult, gold: string): Verdict {
  if (a.status !== 'answered') return 'abstained';
  if (!isNumericGold(gold)) return 'answered_textual_gold';
  const g = goldNumber(gold)!;
  const v = Number(a.rounded);
  const factor = 10 ** g.dp;
  const sameAfterRounding = Math.round(v * factor) === Math.round(g.value * factor);
  const within = g.value === 0 ? v === 0 : Math.abs(v - g.value) / Math.abs(g.value) <= 0.01;
  return sameAfterRounding || within ? 'right' : 'wrong';
}

function pct(a: number, b: number): string {
  return b === 0 ? '-' : `${((100 * a) / b).toFixed(0)}%`;
}

async function main(): Promise<void> {
  const qPath = path.join(DATASET, 'questions.jsonl');
  if (!fs.existsSync(qPath)) {
    console.log(`extraction-dev-check: dataset not found at ${DATASET}; skipping.`);
    return;
  }
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
  const verbose = process.argv.includes('--verbose');
  const questions: Question[] = fs
    .readFileSync(qPath, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Question)
    .filter((q) => !only || q.doc_name.includes(only));
  const docsPath = path.join(DATASET, 'documents.jsonl');
  const docMeta = new Map<string, DocMeta>();
  if (fs.existsSync(docsPath)) {
    for (const l of fs.readFileSync(docsPath, 'utf8').split('\n')) {
      if (l.trim() === '') continue;
      const d = JSON.parse(l) as DocMeta;
      docMeta.set(d.doc_name, d);
    }
  }

  const pagesByDoc = new Map<string, { page: number; text: string }[]>();
  const times: number[] = [];
  type Row = {
    type: string;
    verdict: Verdict;
    conf: number;
    pageMatch: boolean;
    numericGold: boolean;
  };
  const rows: Row[] = [];

  for (const q of questions) {
    let pages = pagesByDoc.get(q.doc_name);
    if (!pages) {
      const pdf = path.join(DATASET, 'pdfs', `${q.doc_name}.pdf`);
      if (!fs.existsSync(pdf)) {
        console.log(`-- ${q.financebench_id}: ${q.doc_name}.pdf missing; skipped`);
        continue;
      }
      const t0 = Date.now();
      const r = await extractPdfText(new Uint8Array(fs.readFileSync(pdf)));
      pages = r.pages;
      pagesByDoc.set(q.doc_name, pages);
      if (verbose)
        console.log(`   (extracted ${q.doc_name}: ${r.pageCount} pages in ${Date.now() - t0} ms)`);
      // Index once outside the timed region: the budget is per question on a parsed document.
      answerQuestion({ question: 'What is the FY2000 total assets?', pages });
    }
    const t0 = performance.now();
    const a = answerQuestion({
      question: q.question,
      pages,
      docPeriod: docMeta.get(q.doc_name)?.doc_period,
    });
    times.push(performance.now() - t0);
    const verdict = judge(a, q.answer);
    const goldPages = q.evidence
      .filter((e) => e.doc_name === q.doc_name)
      .map((e) => e.evidence_page_num);
    const cited = a.status === 'answered' ? [...new Set(a.citations.map((c) => c.page))] : [];
    const pageMatch = cited.some((p) => goldPages.includes(p));
    rows.push({
      type: q.question_type,
      verdict,
      conf: a.status === 'answered' ? a.confidence : 0,
      pageMatch,
      numericGold: isNumericGold(q.answer),
    });

    console.log(`\n== ${q.financebench_id} [${q.question_type}] ${q.doc_name}`);
    console.log(`   Q: ${q.question.length > 220 ? q.question.slice(0, 220) + '…' : q.question}`);
    const parsed = a.parsed;
    if (parsed) {
      console.log(
        `   parsed: ${parsed.kind} ${parsed.formula ?? parsed.metric ?? ''} ${JSON.stringify(parsed.aggregate)} period=${JSON.stringify(parsed.period ?? null)} scale=${parsed.requestedScale ?? '-'} dp=${parsed.rounding ?? '-'} (${parsed.reason})`,
      );
    }
    if (a.status === 'answered') {
      console.log(
        `   answer: ${a.answer}  [conf ${a.confidence}]${a.formula ? `  = ${a.formula.expression}` : ''}`,
      );
      for (const i of a.inputs)
        console.log(
          `     · ${i.metric} ${i.period} = ${i.printed} ("${i.matchedLabel}", p${i.citation.page}, conf ${i.confidence})`,
        );
    } else {
      console.log(`   needs_review: ${a.reason}`);
      if (verbose && a.partial)
        for (const i of a.partial.inputs)
          console.log(
            `     · ${i.metric} ${i.period} = ${i.printed} ("${i.matchedLabel}", p${i.citation.page}, conf ${i.confidence})`,
          );
    }
    console.log(`   gold: ${q.answer.length > 160 ? q.answer.slice(0, 160) + '…' : q.answer}`);
    console.log(
      `   pages: cited ${JSON.stringify(cited)} gold ${JSON.stringify(goldPages)}  → ${verdict.toUpperCase()}${a.status === 'answered' ? (pageMatch ? ' (page ✓)' : ' (page ✗)') : ''}`,
    );
  }

  const summarize = (label: string, rs: Row[]) => {
    const answered = rs.filter((r) => r.verdict !== 'abstained');
    const right = rs.filter((r) => r.verdict === 'right').length;
    const wrong = rs.filter((r) => r.verdict === 'wrong').length;
    const wrongHigh = rs.filter((r) => r.verdict === 'wrong' && r.conf >= 0.85).length;
    const auto = rs.filter((r) => r.verdict !== 'abstained' && r.conf >= 0.85).length;
    const textual = rs.filter((r) => r.verdict === 'answered_textual_gold').length;
    const pageOk = answered.filter((r) => r.pageMatch).length;
    const numeric = rs.filter((r) => r.numericGold).length;
    console.log(
      `${label.padEnd(20)} n=${String(rs.length).padStart(2)}  answered=${answered.length} (auto≥0.85: ${auto})  right=${right}  wrong=${wrong} (at ≥0.85: ${wrongHigh})  textual-gold answered=${textual}  page-match=${pageOk}/${answered.length}  right/numeric-gold=${right}/${numeric} (${pct(right, numeric)})`,
    );
  };
  console.log('\n================ totals ================');
  for (const t of [...new Set(rows.map((r) => r.type))].sort())
    summarize(
      t,
      rows.filter((r) => r.type === t),
    );
  summarize('ALL', rows);
  times.sort((x, y) => x - y);
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  console.log(
    `latency per question on a parsed document: p50 ${p(0.5).toFixed(1)} ms, p95 ${p(0.95).toFixed(1)} ms, max ${p(1).toFixed(1)} ms`,
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
