/**
 * The answer a reader gets: composed from the steps' results (the extracted value on the
 * extraction path, the summary otherwise), and as a reviewer's corrections change it.
 */
import type { Answer } from '../analysis.contract';
import type { Plan } from './planner';
import type { ToolOutput } from './tool-registry';
import type { StepResult } from './step-result';
import type { NumericClaim, Citation } from './evidence';
import type { ReviewDecision } from './review';

/** Drops repeated spans (same document, page and offsets), keeping the first. */
function dedupeCitations(list: Citation[]): Citation[] {
  const seen = new Set<string>();
  return list.filter((c) => {
    const k = `${c.docId}:${c.page}:${c.charStart}:${c.charEnd}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The answer a reader would get: the extracted value (extraction path) or the summary. */
export function composeAnswer(plan: Plan, steps: StepResult[]): Answer {
  const summaryStep = [...steps]
    .reverse()
    .find((s) => s.tool === 'generate_summary' && s.status === 'ok');
  const summaryOut = summaryStep?.output as ToolOutput<'generate_summary'> | undefined;
  const okSteps = steps.filter((s) => s.status === 'ok');
  if (plan.path === 'extraction') {
    const extract = steps.find((s) => s.tool === 'extract_metric');
    const out =
      extract?.status === 'ok' ? (extract.output as ToolOutput<'extract_metric'>) : undefined;
    const structured = out?.status === 'structured' && out.value !== null;
    const compare = steps.find((s) => s.tool === 'compare_frameworks' && s.status === 'ok');
    const compareOut = compare?.output as ToolOutput<'compare_frameworks'> | undefined;
    const verdict = compareOut?.rows[0]
      ? ` — ${compareOut.rows[0].status} (${compareOut.rows[0].operator} ${compareOut.rows[0].threshold}, margin ${compareOut.rows[0].margin ?? 'n/a'})`
      : '';
    return {
      text: structured
        ? `${out.answer ?? out.value}${verdict}`
        : (summaryOut?.text ?? extract?.summary ?? 'No answer'),
      value: structured ? out.value : null,
      unit: structured ? out.unit : null,
      claims: structured ? out.claims : [],
      citations: dedupeCitations(structured ? out.citations : (extract?.citations ?? [])),
      classification: null,
    };
  }
  const claims: NumericClaim[] = okSteps.flatMap((s) => s.claims);
  return {
    text: summaryOut?.text ?? okSteps.map((s) => s.summary).join('\n'),
    value: null,
    unit: null,
    claims,
    citations: dedupeCitations(okSteps.flatMap((s) => s.citations)).slice(0, 40),
    classification: summaryOut?.classification ?? null,
  };
}

/** Reviewer corrections replace values and are marked as human-sourced. */
export function applyCorrections(answer: Answer | null, d: ReviewDecision): Answer | null {
  if (!answer) return null;
  const byId = new Map(d.corrections.map((c) => [c.claimId, c]));
  const claims = answer.claims.map((c) => {
    const fix = byId.get(c.id);
    return fix ? { ...c, value: fix.value, unit: fix.unit ?? c.unit, source: 'human' as const } : c;
  });
  const primary = answer.claims[0] ? byId.get(answer.claims[0].id) : undefined;
  return {
    ...answer,
    claims,
    value: primary ? primary.value : answer.value,
    unit: primary?.unit ?? answer.unit,
    text: primary
      ? `${primary.value} ${primary.unit ?? answer.unit ?? ''}`.trim() +
        ` (corrected by reviewer: ${d.note ?? ''})`
      : answer.text,
  };
}
