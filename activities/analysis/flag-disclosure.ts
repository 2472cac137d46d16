import {
  TOOL_SCHEMAS,
  type ToolInput,
  type ToolOutput,
} from '../../workflows/analysis/tool-registry';
import type { Citation } from '../../workflows/analysis/evidence';
import type { PageStore } from './page-store';
import { TOPIC_PATTERNS } from './disclosure-topics';

type Flag = ToolOutput<'flag_disclosure'>['flags'][number];

/** The sentence-ish span around a match, as a citation into the page text. */
function spanAround(
  docId: string,
  page: number,
  text: string,
  index: number,
  length: number,
): Citation {
  const start = Math.max(0, text.lastIndexOf('\n', Math.max(0, index - 200)) + 1, index - 300);
  const endNl = text.indexOf('\n', Math.min(text.length, index + length + 200));
  const end = Math.min(text.length, endNl === -1 ? text.length : endNl, index + length + 300);
  return { docId, page, charStart: start, charEnd: end, quote: text.slice(start, end) };
}

/** flag_disclosure: is a topic disclosed, as a finding or a mention, and where (cited). */
export function createFlagDisclosure(pages: PageStore) {
  return async function flag_disclosure(
    raw: ToolInput<'flag_disclosure'>,
  ): Promise<ToolOutput<'flag_disclosure'>> {
    const input = TOOL_SCHEMAS.flag_disclosure.input.parse(raw);
    const docs = await Promise.all(
      input.docIds.map(async (id) => ({ id, pages: await pages.pages(input.orgId, id) })),
    );
    const flags: Flag[] = [];

    for (const topic of input.topics) {
      const p = TOPIC_PATTERNS[topic];
      const adverse: Citation[] = [];
      const mentions: Citation[] = [];
      for (const doc of docs) {
        for (const pg of doc.pages) {
          for (const re of p.adverse) {
            const m = re.exec(pg.text);
            if (
              m &&
              !p.negated.some((n) =>
                n.test(pg.text.slice(Math.max(0, m.index - 150), m.index + m[0].length + 50)),
              )
            ) {
              adverse.push(spanAround(doc.id, pg.page, pg.text, m.index, m[0].length));
            }
          }
          if (mentions.length < 3) {
            for (const re of p.mention) {
              const m = re.exec(pg.text);
              if (m) {
                mentions.push(spanAround(doc.id, pg.page, pg.text, m.index, m[0].length));
                break;
              }
            }
          }
        }
      }
      const strength: Flag['strength'] =
        adverse.length > 0 ? 'explicit' : mentions.length > 0 ? 'mentioned' : 'absent';
      flags.push({
        topic,
        disclosed: strength !== 'absent',
        strength,
        citations: (adverse.length ? adverse : mentions).slice(0, 3),
      });
    }

    for (const term of input.terms) {
      const needle = term.toLowerCase();
      const hits: Citation[] = [];
      for (const doc of docs) {
        for (const pg of doc.pages) {
          const i = pg.text.toLowerCase().indexOf(needle);
          if (i >= 0 && hits.length < 3)
            hits.push(spanAround(doc.id, pg.page, pg.text, i, needle.length));
        }
      }
      flags.push({
        topic: term,
        disclosed: hits.length > 0,
        strength: hits.length > 0 ? 'mentioned' : 'absent',
        citations: hits,
      });
    }

    const topicFlags = flags.slice(0, input.topics.length);
    // Pattern reading is dependable for explicit findings and clean absences; a bare mention
    // needs a person to read the passage.
    const confidence =
      input.terms.length > 0
        ? 0.5
        : topicFlags.every((f) => f.strength !== 'mentioned')
          ? 0.9
          : 0.8;
    const summary = flags
      .map(
        (f) =>
          `${f.topic}: ${f.strength === 'explicit' ? 'DISCLOSED FINDING' : f.strength}${f.citations[0] ? ` (${f.citations[0].docId} p.${f.citations[0].page})` : ''}`,
      )
      .join('; ');
    return {
      flags,
      claims: [],
      citations: flags.flatMap((f) => f.citations).slice(0, 20),
      confidence,
      errorTag: null,
      summary,
    };
  };
}
