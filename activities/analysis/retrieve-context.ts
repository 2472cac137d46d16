import type { Db } from '../../db/connection';
import { searchChunks } from '../../db/repositories/documents';
import type { ToolInput, ToolOutput } from '../../workflows/analysis/tool-registry';
import { TOOL_SCHEMAS } from '../../workflows/analysis/tool-registry';

/** retrieve_context: ranked chunks with citations (document, page, offsets, quote). */
export function createRetrieveContext(db: Db) {
  return async function retrieve_context(
    raw: ToolInput<'retrieve_context'>,
  ): Promise<ToolOutput<'retrieve_context'>> {
    const input = TOOL_SCHEMAS.retrieve_context.input.parse(raw);
    const hits = await searchChunks(db, input.orgId, input.docIds, input.query, input.limit);
    const chunks = hits.map((h) => ({ ...h }));
    return {
      chunks,
      citations: hits.slice(0, 5).map((h) => ({
        docId: h.docId,
        page: h.page,
        charStart: h.charStart,
        charEnd: h.charEnd,
        quote: h.quote,
      })),
      claims: [],
      // Retrieval only finds context; an empty result is honest low confidence, not failure.
      confidence: hits.length > 0 ? 1 : 0.5,
      errorTag: hits.length > 0 ? null : 'no_context_found',
      summary:
        hits.length > 0
          ? `Found ${hits.length} relevant passages (top: ${hits[0]?.docId} p.${hits[0]?.page})`
          : 'No passage matched the query',
    };
  };
}
