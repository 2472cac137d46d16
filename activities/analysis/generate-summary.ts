import {
  TOOL_SCHEMAS,
  type ToolInput,
  type ToolOutput,
} from '../../workflows/analysis/tool-registry';
import type { PageStore } from './page-store';
import { classifyDocument } from './classify-document';
import { extractiveSummary } from './extractive-summary';

/**
 * generate_summary, code mode: an extractive summary — the documents' own sentences that bear
 * on the question, each cited to its span — so nothing is said that the filing does not say
 * and a reviewer can check every line. The steps' own account (what each found, with its
 * confidence) stays in the run's audit trail, not in the answer. classify_document adds the
 * type read from the cover page.
 */
export function createGenerateSummary(pages: PageStore) {
  return async function generate_summary(
    raw: ToolInput<'generate_summary'>,
  ): Promise<ToolOutput<'generate_summary'>> {
    const input = TOOL_SCHEMAS.generate_summary.input.parse(raw);
    const lines: string[] = [];
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
      lines.push(`Classification: ${classification}`);
    }
    const docs = await Promise.all(
      input.docIds.map(async (docId) => ({ docId, pages: await pages.pages(input.orgId, docId) })),
    );
    const sentences = extractiveSummary(input.queryText, docs);
    for (const s of sentences) {
      lines.push(`- ${s.text.replace(/\s+/g, ' ')} [${s.citation.docId} p.${s.citation.page + 1}]`);
      citations.push(s.citation);
    }
    // No sentence bears on the question: said so plainly. (Confidence stays the steps': on the
    // extraction path the answer is the extracted value, not this text.)
    if (sentences.length === 0 && classification === null)
      lines.push('No sentence of the documents bears on the question.');
    return {
      text: `${input.queryText}\n${lines.join('\n')}`,
      classification,
      method: 'code',
      claims: [],
      citations,
      confidence,
      errorTag: null,
      summary:
        classification ??
        `Extractive summary: ${sentences.length} cited sentence(s) from ${input.docIds.length} document(s)`,
    };
  };
}
