import { z } from 'zod';
import type { AgentContext, HandlerResult } from '../../workflows/agent-runs/context';
import { QueryTypeSchema } from '../../workflows/analysis/request';

const TriggerSchema = z.object({
  documentId: z.string().min(1).max(128),
  questionSet: z.string().min(1).max(60).optional(),
});
const SettingsSchema = z.object({
  default_question_set: z.string().min(1),
  question_sets: z.record(
    z.string(),
    z
      .array(z.object({ query_type: QueryTypeSchema, query_text: z.string().min(1).max(4000) }))
      .min(1)
      .max(20),
  ),
});

/**
 * The document analyst (SPEC Part A as an agent): on `document.received` it runs the cited
 * analysis pipeline for each question of the configured question set and records every
 * outcome — delivered answers, and questions waiting for a reviewer.
 */
export async function handle(ctx: AgentContext): Promise<HandlerResult> {
  const trigger = TriggerSchema.safeParse(ctx.trigger.payload);
  if (!trigger.success)
    return {
      status: 'failed',
      summary: `trigger payload invalid: ${trigger.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    };
  const settings = SettingsSchema.parse(ctx.settings);
  const setName = trigger.data.questionSet ?? settings.default_question_set;
  const questions = settings.question_sets[setName];
  if (!questions)
    return {
      status: 'failed',
      summary: `unknown question set ${setName}; known: ${Object.keys(settings.question_sets).join(', ')}`,
    };
  await ctx.log(`analysing ${trigger.data.documentId} with question set ${setName}`, {
    questions: questions.length,
  });
  const answers = [];
  for (const q of questions) {
    const r = await ctx.tool('analyze_document', {
      docIds: [trigger.data.documentId],
      queryType: q.query_type,
      queryText: q.query_text,
    });
    await ctx.log(`${q.query_type}: ${r.outcome}`, { requestId: r.requestId, answer: r.answer });
    answers.push({ question: q.query_text, ...r });
  }
  const delivered = answers.filter((a) => a.outcome === 'delivered').length;
  return {
    status: 'succeeded',
    summary: `${answers.length} question(s): ${delivered} delivered, ${answers.length - delivered} with a reviewer`,
    data: { documentId: trigger.data.documentId, questionSet: setName, answers },
  };
}
