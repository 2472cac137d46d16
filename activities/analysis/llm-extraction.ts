import Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import type { ToolOutput } from '../../workflows/analysis/tool-registry';
import { textContainsNumber } from './number-match';
import { findScaleDeclarations } from './extraction/scale';

/** Ceiling of a model's reading: below code's, and below the ≥0.95 bucket it has not earned. */
export const LLM_MAX_CONFIDENCE = 0.9;

/**
 * A model's reading earns confidence from what the page confirms, never a fixed number: the
 * quote is verbatim on the page and holds the number (required), the scale it claims is the
 * scale the page declares, and the fiscal year it names is printed on that page.
 */
export function llmReadingConfidence(r: {
  pageText: string;
  unit: string;
  scale: 'units' | 'thousands' | 'millions' | 'billions';
  fiscalYear: number | null;
}): { confidence: number; notes: string[] } {
  const notes: string[] = [];
  let c = LLM_MAX_CONFIDENCE;
  if (r.unit === 'USD' || r.unit === 'shares') {
    const declared = new Set(findScaleDeclarations(r.pageText).map((d) => d.scale));
    if (r.scale !== 'units' && !declared.has(r.scale)) {
      c *= declared.size > 0 ? 0.6 : 0.8;
      notes.push(
        declared.size > 0
          ? `page declares ${[...declared].join('/')}, model said ${r.scale}`
          : `page declares no scale, model said ${r.scale}`,
      );
    }
  }
  if (r.fiscalYear === null) {
    c *= 0.8;
    notes.push('no fiscal year named');
  } else if (!r.pageText.includes(String(r.fiscalYear))) {
    c *= 0.8;
    notes.push(`FY${r.fiscalYear} is not printed on the page`);
  }
  return { confidence: Math.round(c * 1000) / 1000, notes };
}

/** Model tiers of the platform; an agent config names a tier, never a model. */
export const MODEL_TIERS = {
  fast: 'claude-haiku-4-5',
  standard: 'claude-sonnet-4-5',
  advanced: 'claude-opus-4-1',
} as const;
export type ModelTier = keyof typeof MODEL_TIERS;

const LlmAnswerSchema = z.object({
  found: z.boolean(),
  value_as_printed: z.string().nullable(),
  unit: z.enum(['USD', 'percent', 'shares', 'USD/share', 'ratio']).nullable(),
  scale: z.enum(['units', 'thousands', 'millions', 'billions']).nullable(),
  page: z.number().int().nullable(),
  quote: z.string().nullable(),
  label: z.string().nullable(),
  /** Fiscal year of the column the figure is printed in; without it the answer's period is unknown. */
  fiscal_year: z.number().int().min(1900).max(2100).nullable().optional(),
});

const REPORT_TOOL = {
  name: 'report_value',
  description:
    'Report the single figure that answers the question, exactly as printed, with the page and the exact line it is printed on.',
  input_schema: {
    type: 'object' as const,
    properties: {
      found: { type: 'boolean', description: 'false when the pages do not state the answer' },
      value_as_printed: {
        type: ['string', 'null'],
        description: 'the number exactly as printed, e.g. "1,577" or "(32)" or "12.5%"',
      },
      unit: {
        type: ['string', 'null'],
        enum: ['USD', 'percent', 'shares', 'USD/share', 'ratio', null],
      },
      scale: {
        type: ['string', 'null'],
        enum: ['units', 'thousands', 'millions', 'billions', null],
      },
      page: {
        type: ['integer', 'null'],
        description: 'the page number shown in the [page N] marker',
      },
      quote: {
        type: ['string', 'null'],
        description: 'the exact line of the page that contains the number, copied verbatim',
      },
      label: { type: ['string', 'null'], description: 'the line item label' },
      fiscal_year: {
        type: ['integer', 'null'],
        description: 'the fiscal year of the column the figure is printed in',
      },
    },
    required: [
      'found',
      'value_as_printed',
      'unit',
      'scale',
      'page',
      'quote',
      'label',
      'fiscal_year',
    ],
  },
};

export interface LlmUsage {
  model: string;
  inputTokens: number;
  outputTokens: number;
}

const SCALE_ZEROS = { units: 0, thousands: 3, millions: 6, billions: 9 } as const;

/**
 * Pages the model reads: those retrieve_context found first (best first), topped up by a
 * keyword score when retrieval found fewer than `max`.
 */
function pickPages(
  question: string,
  pages: { page: number; text: string }[],
  max: number,
  prefer: readonly number[] = [],
) {
  const preferred = prefer
    .map((n) => pages.find((p) => p.page === n))
    .filter((p): p is { page: number; text: string } => p !== undefined)
    .slice(0, max);
  if (preferred.length >= max) return preferred;
  const rest = scorePages(
    question,
    pages.filter((p) => !preferred.includes(p)),
    max - preferred.length,
  );
  return [...preferred, ...rest];
}

function scorePages(question: string, pages: { page: number; text: string }[], max: number) {
  const terms = [...new Set(question.toLowerCase().match(/[a-z]{4,}/g) ?? [])];
  return pages
    .map((p) => {
      const lower = p.text.toLowerCase();
      return {
        p,
        score:
          terms.reduce((s, t) => s + (lower.includes(t) ? 1 : 0), 0) +
          (/\b(in millions|in thousands)\b/i.test(p.text) ? 1 : 0),
      };
    })
    .sort((a, b) => b.score - a.score || a.p.page - b.p.page)
    .slice(0, max)
    .map((x) => x.p);
}

/**
 * Hybrid extraction: Claude reads a few candidate pages and reports one printed figure with
 * its line. Nothing is trusted: the quote must be found verbatim on that page and contain
 * the number, or the answer is dropped.
 */
export class LlmExtractor {
  readonly usage: LlmUsage[] = [];
  constructor(
    private readonly client: Anthropic,
    private readonly tier: ModelTier = 'fast',
  ) {}

  static fromConfig(cfg: {
    ANTHROPIC_API_KEY?: string;
    ANTHROPIC_BASE_URL?: string;
  }): LlmExtractor | null {
    if (!cfg.ANTHROPIC_API_KEY) return null;
    return new LlmExtractor(
      new Anthropic({
        apiKey: cfg.ANTHROPIC_API_KEY,
        baseURL: cfg.ANTHROPIC_BASE_URL,
        maxRetries: 2,
        timeout: 60_000,
      }),
    );
  }

  async extract(req: {
    docId: string;
    question: string;
    pages: { page: number; text: string }[];
    /** Pages retrieve_context found, read first. */
    preferPages?: readonly number[];
  }): Promise<ToolOutput<'extract_metric'> | null> {
    const chosen = pickPages(req.question, req.pages, 3, req.preferPages);
    const model = MODEL_TIERS[this.tier];
    const msg = await this.client.messages.create({
      model,
      max_tokens: 400,
      system:
        'You read pages of financial filings and report one printed figure. Never compute or estimate; if the figure is not printed on these pages, report found=false.',
      tools: [REPORT_TOOL],
      tool_choice: { type: 'tool', name: REPORT_TOOL.name },
      messages: [
        {
          role: 'user',
          content: `${chosen.map((p) => `[page ${p.page}]\n${p.text}`).join('\n\n')}\n\nQuestion: ${req.question}`,
        },
      ],
    });
    this.usage.push({
      model,
      inputTokens: msg.usage.input_tokens,
      outputTokens: msg.usage.output_tokens,
    });
    const block = msg.content.find((b) => b.type === 'tool_use');
    if (!block || block.type !== 'tool_use') return null;
    const parsed = LlmAnswerSchema.safeParse(block.input);
    if (!parsed.success || !parsed.data.found) return null;
    const a = parsed.data;
    if (a.value_as_printed === null || a.quote === null || a.page === null || a.unit === null)
      return null;
    const pageText = req.pages.find((p) => p.page === a.page)?.text;
    const at = pageText ? pageText.indexOf(a.quote) : -1;
    if (!pageText || at < 0 || !textContainsNumber(a.quote, a.value_as_printed)) return null;
    const negative = /^\(.*\)$|^-/.test(a.value_as_printed.trim());
    const magnitude = a.value_as_printed.replace(/[^\d.]/g, '');
    if (!/^\d+(\.\d+)?$/.test(magnitude)) return null;
    const value = `${negative ? '-' : ''}${magnitude}`;
    const citation = {
      docId: req.docId,
      page: a.page,
      charStart: at,
      charEnd: at + a.quote.length,
      quote: a.quote,
    };
    const scale = a.scale ?? 'units';
    const scored = llmReadingConfidence({
      pageText,
      unit: a.unit,
      scale,
      fiscalYear: a.fiscal_year ?? null,
    });
    const unitLabel = a.unit === 'USD' && scale !== 'units' ? `USD ${scale}` : a.unit;
    return {
      status: 'structured',
      answer: `${value} ${unitLabel}`,
      unit: unitLabel,
      value,
      method: 'llm',
      // extract_metric attaches both readings of the question and this reading's form.
      form: null,
      claims: [
        {
          id: `${req.docId}/llm/${a.page}:${at}#0`,
          label: a.label ?? 'value',
          metric: null,
          kind:
            a.unit === 'percent'
              ? 'ratio_percent'
              : a.unit === 'ratio'
                ? 'ratio'
                : a.unit === 'shares'
                  ? 'count'
                  : a.unit === 'USD/share'
                    ? 'per_share'
                    : 'money',
          value,
          unit: unitLabel,
          period: a.fiscal_year ? `FY${a.fiscal_year}` : null,
          printed: a.value_as_printed,
          citations: [citation],
          derived: false,
          formula: null,
          inputs: [],
          source: 'llm',
        },
      ],
      citations: [citation],
      // Computed from what the page confirms; the gate still needs both readings of the
      // question to agree with the reading's form before it may deliver.
      confidence: scored.confidence,
      errorTag: null,
      summary: `LLM (${model}) read ${a.label ?? 'the value'} = ${a.value_as_printed} on p.${a.page}${a.fiscal_year ? ` (FY${a.fiscal_year})` : ''}; scale ${scale} (${SCALE_ZEROS[scale]} zeros)${scored.notes.length ? `; ${scored.notes.join('; ')}` : ''}`,
    };
  }
}
