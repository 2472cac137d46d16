import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Client } from '@temporalio/client';
import type { Db } from '../../db/connection';
import { ensureOrganization } from '../../db/repositories/organizations';
import { ingestFile } from '../../client/documents';
import { AnalysisClient } from '../../client/analysis-client';
import { textContainsNumber } from '../../activities/analysis/number-match';
import { calibrationTable, gradeAnswer, percentile, type CalibrationBucket } from './grading';
import type { AnswerForm } from '../../workflows/analysis/answer-form';
import type { ToolOutput } from '../../workflows/analysis/tool-registry';
import type { FactReadings } from '../../workflows/analysis/fact-readings';

/** One question in the FinanceBench format (shared/datasets/financebench-dev/questions.jsonl). */
export const FinanceBenchQuestionSchema = z
  .object({
    financebench_id: z.string(),
    doc_name: z.string(),
    question_type: z.string(),
    question_reasoning: z.string().nullable().optional(),
    question: z.string(),
    answer: z.string(),
    evidence: z.array(
      z.object({ doc_name: z.string(), evidence_page_num: z.number().int() }).passthrough(),
    ),
  })
  .passthrough();
export type FinanceBenchQuestion = z.infer<typeof FinanceBenchQuestionSchema>;

export interface EvalItem {
  id: string;
  question_type: string;
  doc: string;
  outcome: 'delivered' | 'human_review' | 'failed';
  answer: string | null;
  unit: string | null;
  citations: { doc: string; page: number; quote: string }[];
  confidence: number | null;
  reason: string | null;
  latencyMs: number;
  gold: string;
  goldPages: number[];
  correct: boolean | null;
  citationHit: boolean | null;
  numbersInCitedText: boolean | null;
  /** The question parser's reading of the asked form (null when it could not map the question). */
  askedForm: AnswerForm | null;
  /** The cue reader's reading of the same question. */
  secondReading: AnswerForm | null;
  /** The form of what extraction computed (null when it produced no structured answer). */
  deliveredForm: AnswerForm | null;
  /** The gate's verdict on the forms, with the fields that differ. */
  formCheck: {
    status: 'agree' | 'mismatch' | 'not_checked';
    mismatchedFields: string[];
    disagreeingFields: string[];
    reasons: string[];
  } | null;
  /** The gate's label agreement verdict: the question's qualifiers against the rows read. */
  labelCheck?: {
    status: 'agree' | 'mismatch' | 'not_checked';
    asked: string | null;
    read: string[];
    unsupported: string[];
    reasons: string[];
  } | null;
  /**
   * Which readings answered (issue 22): the inline XBRL facts with each operand's fact and
   * printed reading and whether they agree, or the text path (and why facts were not used);
   * null for a filing without facts or a run with --no-ixbrl.
   */
  readings?: FactReadings | null;
}

export interface EvalMetrics {
  questions: number;
  completion: number;
  automation: number;
  deliveredAccuracy: number | null;
  hallucinationRate: number | null;
  citationAccuracy: number | null;
  delivered: number;
  wrong: number;
  latencyMs: { p50: number; p95: number };
  /** Accuracy of delivered answers by confidence bucket. */
  calibration: CalibrationBucket[];
}

export interface EvalReport extends EvalMetrics {
  pagesPerSecond: number | null;
  pagesIngested: number;
  byQuestionType: Record<string, EvalMetrics>;
  items: EvalItem[];
}

export function readQuestions(datasetDir: string): FinanceBenchQuestion[] {
  return readFileSync(join(datasetDir, 'questions.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      const parsed = FinanceBenchQuestionSchema.safeParse(JSON.parse(l));
      if (!parsed.success)
        throw new Error(
          `questions.jsonl line ${i + 1}: ${parsed.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}`,
        );
      return parsed.data;
    });
}

const DOCUMENT_EXTENSIONS = ['.pdf', '.html', '.htm', '.txt'];

/**
 * The file of one filing in the documents folder (`<dataset>/pdfs` unless the dataset reads
 * its filings from elsewhere); the error names the folder and the file that is missing.
 */
export function documentFile(documentsDir: string, doc: string): string {
  if (!existsSync(documentsDir))
    throw new Error(
      `Documents folder ${documentsDir} does not exist: cannot read ${doc}.pdf (pass --documents-dir DIR)`,
    );
  for (const ext of DOCUMENT_EXTENSIONS) {
    const p = join(documentsDir, `${doc}${ext}`);
    if (existsSync(p)) return p;
  }
  throw new Error(
    `No file for document ${doc} in ${documentsDir} (looked for ${DOCUMENT_EXTENSIONS.map((e) => doc + e).join(', ')})`,
  );
}

const ratio = (n: number, d: number): number | null => (d === 0 ? null : n / d);

/** Metric definitions of shared/datasets/README.md over graded items. */
export function computeMetrics(items: EvalItem[]): EvalMetrics {
  const delivered = items.filter((i) => i.outcome === 'delivered');
  const wrong = delivered.filter((i) => i.correct !== true);
  const hallucinated = delivered.filter(
    (i) => i.correct !== true || i.numbersInCitedText === false,
  );
  return {
    questions: items.length,
    completion: ratio(items.filter((i) => i.outcome !== 'failed').length, items.length) ?? 0,
    automation: ratio(delivered.length, items.length) ?? 0,
    deliveredAccuracy: ratio(delivered.length - wrong.length, delivered.length),
    hallucinationRate: ratio(hallucinated.length, delivered.length),
    citationAccuracy: ratio(delivered.filter((i) => i.citationHit).length, delivered.length),
    delivered: delivered.length,
    wrong: wrong.length,
    calibration: calibrationTable(
      delivered.map((i) => ({ confidence: i.confidence ?? 0, correct: i.correct === true })),
    ),
    latencyMs: {
      p50: percentile(
        items.map((i) => i.latencyMs),
        50,
      ),
      p95: percentile(
        items.map((i) => i.latencyMs),
        95,
      ),
    },
  };
}

/**
 * Runs every question through the real analysis workflow (started by the typed client,
 * delivered or routed to review by the validation gate) and grades what was delivered.
 * Reviews are not simulated: a question sent to review is completed, not automated.
 */
export async function runFinanceBench(opts: {
  datasetDir: string;
  /** Where the filings are; `<datasetDir>/pdfs` when unset. */
  documentsDir?: string;
  db: Db;
  client: Client;
  taskQueue: string;
  orgId: string;
  limit?: number;
  onProgress?: (done: number, total: number, phase: string) => void;
}): Promise<EvalReport> {
  const questions = readQuestions(opts.datasetDir).slice(0, opts.limit ?? Infinity);
  await ensureOrganization(opts.db, { id: opts.orgId, name: `FinanceBench eval ${opts.orgId}` });
  const docs = [...new Set(questions.map((q) => q.doc_name))];
  // Every filing is found before anything is ingested: a missing one fails the run at once.
  const documentsDir = opts.documentsDir ?? join(opts.datasetDir, 'pdfs');
  const files = new Map(docs.map((doc) => [doc, documentFile(documentsDir, doc)]));
  let pages = 0;
  let seconds = 0;
  for (const [i, doc] of docs.entries()) {
    opts.onProgress?.(i, docs.length, `ingest ${doc}`);
    const r = await ingestFile(
      { db: opts.db, client: opts.client, taskQueue: opts.taskQueue },
      { orgId: opts.orgId, path: files.get(doc) as string, id: doc },
    );
    if (r.ingestion.pagesIngested > 0) {
      pages += r.ingestion.pagesIngested;
      seconds += r.ingestion.seconds;
    } else if (r.document.ingestMs !== null && r.document.pageCount !== null) {
      // Ingested by an earlier run (ingestion is idempotent per content): its measured time.
      pages += r.document.pageCount;
      seconds += r.document.ingestMs / 1000;
    }
  }
  const analysis = new AnalysisClient(opts.client, opts.taskQueue);
  const runTag = Date.now().toString(36);
  const items: EvalItem[] = [];
  for (const [i, q] of questions.entries()) {
    opts.onProgress?.(i, questions.length, q.financebench_id);
    // Request ids are unique per run: a re-run must analyse again, not return the last answer.
    const requestId = `fb-${q.financebench_id}-${runTag}`.replace(/[^A-Za-z0-9._-]/g, '-');
    const started = Date.now();
    let item: EvalItem;
    const goldPages = q.evidence
      .filter((e) => e.doc_name === q.doc_name)
      .map((e) => e.evidence_page_num);
    try {
      await analysis.start({
        requestId,
        orgId: opts.orgId,
        docIds: [q.doc_name],
        queryType: 'extract_metric',
        queryText: q.question,
        requestedBy: 'eval',
      });
      const view = await analysis.settle(opts.orgId, requestId, 300_000);
      const latencyMs = Date.now() - started;
      const delivered = view.status === 'completed' && view.result?.outcome === 'delivered';
      const answer = delivered ? (view.result?.answer ?? null) : null;
      const citations = (answer?.citations ?? []).map((c) => ({
        doc: c.docId,
        page: c.page,
        quote: c.quote,
      }));
      const extractOut = view.steps.find((s) => s.tool === 'extract_metric')?.output as
        ToolOutput<'extract_metric'> | null | undefined;
      const form = extractOut?.form ?? null;
      const check = view.validation?.checks.answerForm ?? null;
      const forms = {
        askedForm: form?.asked ?? null,
        secondReading: form?.secondReading ?? null,
        deliveredForm: form?.delivered ?? null,
        formCheck: check
          ? {
              status: check.status,
              mismatchedFields: check.mismatches.map((m) => m.field),
              disagreeingFields: check.disagreements.map((d) => d.field),
              reasons: check.reasons,
            }
          : null,
      };
      const lc = view.validation?.checks.labelAgreement ?? null;
      const labelCheck = lc
        ? {
            status: lc.status,
            asked: lc.asked,
            read: lc.read,
            unsupported: lc.unsupported,
            reasons: lc.reasons,
          }
        : null;
      const numbersInCitedText = answer
        ? answer.claims
            .filter((c) => !c.derived)
            .every((c) =>
              c.citations.some((ct) =>
                textContainsNumber(ct.quote, c.printed ?? c.value, {
                  negative: c.value.startsWith('-'),
                }),
              ),
            )
        : null;
      item = {
        id: q.financebench_id,
        question_type: q.question_type,
        doc: q.doc_name,
        outcome: delivered ? 'delivered' : 'human_review',
        answer: answer?.text ?? null,
        unit: answer?.unit ?? null,
        citations,
        confidence: view.validation?.minConfidence ?? null,
        // Why it went to a person: what extraction said, then the gate's reasons.
        reason: delivered
          ? null
          : [
              view.steps.find((s) => s.tool === 'extract_metric')?.summary,
              ...(view.validation?.reasons ?? ['no validation']),
            ]
              .filter((r): r is string => Boolean(r))
              .join('; '),
        latencyMs,
        gold: q.answer,
        goldPages,
        correct: answer ? gradeAnswer(answer.text, q.answer).correct : null,
        citationHit: answer
          ? citations.some((c) => c.doc === q.doc_name && goldPages.includes(c.page))
          : null,
        numbersInCitedText,
        ...forms,
        labelCheck,
        readings: extractOut?.readings ?? null,
      };
    } catch (err) {
      item = {
        id: q.financebench_id,
        question_type: q.question_type,
        doc: q.doc_name,
        outcome: 'failed',
        answer: null,
        unit: null,
        citations: [],
        confidence: null,
        reason: err instanceof Error ? err.message : String(err),
        latencyMs: Date.now() - started,
        gold: q.answer,
        goldPages,
        correct: null,
        citationHit: null,
        numbersInCitedText: null,
        askedForm: null,
        secondReading: null,
        deliveredForm: null,
        formCheck: null,
      };
    }
    items.push(item);
  }
  opts.onProgress?.(questions.length, questions.length, 'done');
  const byQuestionType: Record<string, EvalMetrics> = {};
  for (const t of [...new Set(items.map((i) => i.question_type))].sort())
    byQuestionType[t] = computeMetrics(items.filter((i) => i.question_type === t));
  return {
    ...computeMetrics(items),
    pagesPerSecond: seconds > 0 ? pages / seconds : null,
    pagesIngested: pages,
    byQuestionType,
    items,
  };
}
