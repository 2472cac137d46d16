import {
  TOOL_SCHEMAS,
  type ToolInput,
  type ToolOutput,
} from '../../workflows/analysis/tool-registry';
import type { PageStore } from './page-store';
import { classifyDocument } from './classify-document';

/**
 * generate_summary, code mode: a plain account of what each step found, with its confidence,
 * so nothing is said that a step did not establish. classify_document adds the type read
 * from the cover page.
 */
export function createGenerateSummary(pages: PageStore) {
  return async function generate_summary(
    raw: ToolInput<'generate_summary'>,
  ): Promise<ToolOutput<'generate_summary'>> {
    const input = TOOL_SCHEMAS.generate_summary.input.parse(raw);
    const lines = input.facts.map(
      (f) => `- ${f.tool} (${f.stepId}, confidence ${f.confidence.toFixed(2)}): ${f.summary}`,
    );
    let classification: string | null = null;
    const citations: ToolOutput<'generate_summary'>['citations'] = [];
    let confidence = input.facts.length ? Math.min(...input.facts.map((f) => f.confidence)) : 1;
    if (input.queryType === 'classify_document') {
      const types: string[] = [];
      for (const docId of input.docIds) {
        const docPages = await pages.pages(input.orgId, docId);
        const c = classifyDocument(docPages);
        types.push(`${docId}: ${c.type ?? 'unknown'}`);
        if (c.type && c.page !== null) {
          const text = docPages.find((p) => p.page === c.page)?.text ?? '';
          const start = Math.max(0, c.index - 80);
          const end = Math.min(text.length, c.index + c.match.length + 80);
          citations.push({
            docId,
            page: c.page,
            charStart: start,
            charEnd: end,
            quote: text.slice(start, end),
          });
        } else {
          confidence = Math.min(confidence, 0.5);
        }
      }
      classification = types.join('; ');
      lines.unshift(`Classification: ${classification}`);
    }
    return {
      text: `${input.queryText}\n${lines.join('\n')}`,
      classification,
      method: 'code',
      claims: [],
      citations,
      confidence,
      errorTag: null,
      summary: classification ?? `Summarised ${input.facts.length} step(s)`,
    };
  };
}
