import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import { checkAnswer, type AnswerSchema } from '../../workflows/requests/answer-schema';
import {
  hostility,
  numberOf,
  readFreeTextByRules,
  type FreeTextContext,
} from '../../workflows/requests/free-text';

export type ReadResult =
  | { status: 'parsed'; answer: Record<string, unknown>; by: 'rules' | 'model' }
  | { status: 'unclear'; reason: string; by: 'rules' | 'model' }
  | { status: 'refused'; reason: string; by: 'rules' | 'model' };

/** The small model's structured reply (tool input), validated before anything trusts it. */
const ModelReadingSchema = z
  .object({
    status: z.enum(['parsed', 'unclear']),
    answer: z.record(z.string(), z.unknown()).optional(),
    reason: z.string().max(1000).optional(),
  })
  .strict();

const NUMBER = /-?\d(?:[\d,]*\d)?(?:\.\d+)?/g;

/** Every number and code the model put in the answer must be written in the person's text. */
function writtenInText(
  answer: Record<string, unknown>,
  text: string,
  schema: AnswerSchema,
): string | null {
  // Read as the rules read them: `412,50` is no number at all, never 41250.
  const nums = new Set([...text.matchAll(NUMBER)].map((m) => numberOf(m[0])));
  for (const f of schema.fields) {
    const v = answer[f.name];
    if (v === undefined) continue;
    if (f.kind === 'number' && !nums.has(v as number))
      return `${f.name}: ${String(v)} is not in the answer`;
    if (f.kind === 'code_per_item')
      for (const code of Object.values(v as Record<string, string>))
        if (!text.includes(code)) return `${f.name}: code ${code} is not in the answer`;
    if (f.kind === 'enum' && !text.toLowerCase().includes(String(v).toLowerCase()))
      return `${f.name}: ${String(v)} is not in the answer`;
  }
  return null;
}

/**
 * Rules first; when they find the text unclear and a model is configured, one call to the
 * fast tier fills the form or says unclear. What it returns must pass the form, the hostility
 * check and the "written in the text" check — a model's guess degrades to unclear.
 */
export async function readFreeText(
  deps: { anthropic: Anthropic | null; model: string },
  text: string,
  ctx: FreeTextContext & { type: string },
): Promise<ReadResult> {
  const rules = readFreeTextByRules(text, ctx);
  if (rules.status !== 'unclear' || !deps.anthropic) return { ...rules, by: 'rules' };
  const msg = await deps.anthropic.messages.create({
    model: deps.model,
    max_tokens: 512,
    system:
      'You read a person\'s free-text answer into a form. Fill a field only with what the text states without doubt; if anything is ambiguous, hedged, or missing, answer status "unclear" with a reason. Never infer values that are not written.',
    messages: [
      {
        role: 'user',
        content: JSON.stringify({
          request: { type: ctx.type, title: ctx.title, question: ctx.question },
          form: ctx.answerSchema,
          answerText: text,
        }),
      },
    ],
    tools: [
      {
        name: 'fill_form',
        description: 'The reading of the answer: parsed with the form values, or unclear with why.',
        input_schema: {
          type: 'object',
          properties: {
            status: { type: 'string', enum: ['parsed', 'unclear'] },
            answer: { type: 'object' },
            reason: { type: 'string' },
          },
          required: ['status'],
        },
      },
    ],
    tool_choice: { type: 'tool', name: 'fill_form' },
  });
  const block = msg.content.find((b) => b.type === 'tool_use');
  const reading = ModelReadingSchema.safeParse(block && 'input' in block ? block.input : undefined);
  if (!reading.success)
    return { status: 'unclear', reason: 'the model gave no usable reading', by: 'model' };
  if (reading.data.status === 'unclear' || !reading.data.answer)
    return { status: 'unclear', reason: reading.data.reason ?? rules.reason, by: 'model' };
  const check = checkAnswer(ctx.answerSchema, reading.data.answer);
  if (!check.ok)
    return {
      status: 'unclear',
      reason: `model reading rejected: ${check.issues.join('; ')}`,
      by: 'model',
    };
  const hostile = hostility(text, ctx);
  if (hostile) return { status: 'refused', reason: hostile, by: 'model' };
  const unwritten = writtenInText(check.answer, text, ctx.answerSchema);
  if (unwritten)
    return { status: 'unclear', reason: `model reading rejected: ${unwritten}`, by: 'model' };
  return { status: 'parsed', answer: check.answer, by: 'model' };
}
