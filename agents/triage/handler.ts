import { z } from 'zod';
import type { AgentContext, HandlerResult } from '../../workflows/agent-runs/context';
import { REQUEST_COMPLETED_EVENT } from '../../workflows/requests/contract';
import { RouteSchema, decideRoute, type Route, type RouteScore } from './classify';

/**
 * Triage. On `triage.requested` — a document another agent could not process, or one a
 * person or service hands in — it reads the document's title and opening text, and routes it
 * by emitting the owning agent's event ({documentId}), only when the cues single out one
 * owner that is not the one it came from. Otherwise — or when the hand-off chain is at its
 * hop cap (the emit is refused) — ONE classification request asks a person for the owner; on
 * that request's completion it routes their answer ("none" closes the item). It has no write
 * tool and no delegation: it only routes.
 */
export const TRIAGE_REQUESTED_EVENT = 'triage.requested';
export const NO_ROUTE = 'none';

export const TriageRequestedSchema = z
  .object({
    documentId: z.string().min(1).max(100),
    /** Why the item was handed over (the sender's words, shown to the person). */
    reason: z.string().min(1).max(2000),
    subject: z.string().max(500).optional(),
    /** Who could not process it: its owner is never routed back to. */
    from: z
      .object({
        agentType: z.string().min(1).max(100).nullable(),
        eventType: z.string().min(1).max(100).nullable(),
      })
      .strict()
      .default({ agentType: null, eventType: null }),
  })
  .strict();
export type TriageRequested = z.input<typeof TriageRequestedSchema>;

const SettingsSchema = z.object({
  min_cues: z.number().int().min(1).max(20).default(2),
  opening_chars: z.number().int().min(200).max(8000).default(4000),
  request_due_days: z.number().int().min(1).max(90).default(3),
  routes: z
    .array(RouteSchema)
    .min(1)
    .max(20)
    .refine((rs) => new Set(rs.map((r) => r.name)).size === rs.length, 'route names are unique')
    .refine((rs) => rs.every((r) => r.name !== NO_ROUTE), `"${NO_ROUTE}" is reserved`),
});
type Settings = z.infer<typeof SettingsSchema>;

const CallbackSchema = z.object({
  requestCallback: z.literal(true),
  requestId: z.string().min(1),
  createdByAgentType: z.string().nullable(),
  answer: z.record(z.string(), z.unknown()).nullable(),
  answeredBy: z.string().nullable(),
});
const AnswerSchema = z.object({
  routes: z.record(z.string(), z.string()),
  note: z.string().optional(),
});

const issues = (e: z.ZodError) =>
  e.issues.map((i) => `${i.path.join('.') || '(payload)'}: ${i.message}`).join('; ');

export async function handle(ctx: AgentContext): Promise<HandlerResult> {
  const settings = SettingsSchema.parse(ctx.settings);
  if (ctx.trigger.eventType === REQUEST_COMPLETED_EVENT) return routeAnswer(ctx, settings);

  const p = TriageRequestedSchema.safeParse(ctx.trigger.payload);
  if (!p.success)
    return { status: 'failed', summary: `trigger payload invalid: ${issues(p.error)}` };
  const item = p.data;
  const outline = await ctx.tool('document_outline', {
    documentId: item.documentId,
    chars: settings.opening_chars,
  });
  const text = [outline.title, item.subject ?? '', outline.opening].join('\n');
  const excluded = item.from.eventType ? [item.from.eventType] : [];
  const decision = decideRoute(text, settings.routes, {
    minCues: settings.min_cues,
    excludedEventTypes: excluded,
  });
  await ctx.log(
    `${item.documentId} (${outline.title}): ${decision.kind === 'route' ? `route ${decision.route.name}` : `a person decides: ${decision.reason}`}`,
    { scores: decision.scores, from: item.from },
  );

  let why = decision.kind === 'person' ? decision.reason : '';
  if (decision.kind === 'route') {
    const sent = await handOver(ctx, decision.route, item.documentId);
    if (sent.status !== 'refused')
      return {
        status: 'succeeded',
        summary: `${item.documentId} routed to ${decision.route.name} (${decision.route.event_type})`,
        data: { documentId: item.documentId, route: decision.route.name, eventId: sent.eventId },
      };
    why = `hand-off to ${decision.route.name} refused: ${sent.detail ?? 'hop cap'}`;
  }

  const suggestion = decision.kind === 'person' ? decision.suggestion : null;
  const r = await ctx.request({
    type: 'classification',
    title: `Where does ${outline.title} belong?`.slice(0, 300),
    question: [
      `Document ${item.documentId} (${outline.title}, ${outline.pageCount} page(s)) was handed to triage${item.from.agentType ? ` by ${item.from.agentType}` : ''}: ${item.reason}`,
      `Triage could not route it: ${why}.`,
      `Choose its owner — ${settings.routes.map((rt) => `${rt.name}: ${rt.description}`).join(' ')} — or "${NO_ROUTE}" to close it.`,
    ].join('\n'),
    answerSchema: {
      fields: [
        {
          name: 'routes',
          label: 'Owner',
          kind: 'code_per_item',
          items: [{ id: item.documentId, label: outline.title.slice(0, 500) || item.documentId }],
          codes: [...settings.routes.map((rt) => rt.name), NO_ROUTE],
        },
        { name: 'note', label: 'Note', kind: 'text', required: false },
      ],
    },
    evidence: {
      documentId: item.documentId,
      title: outline.title,
      reason: item.reason,
      from: item.from,
      triage: why,
      suggestion,
      cues: Object.fromEntries(decision.scores.map((s: RouteScore) => [s.route, s.cues])),
      opening: outline.opening.slice(0, 1500),
    },
    dueInDays: settings.request_due_days,
  });
  return {
    status: 'waiting_human',
    summary: `${item.documentId}: a person chooses its owner (request ${r.requestId})`,
    data: { documentId: item.documentId, requestId: r.requestId, reason: why },
  };
}

async function handOver(ctx: AgentContext, route: Route, documentId: string) {
  const r = await ctx.tool('emit_event', { type: route.event_type, payload: { documentId } });
  await ctx.log(`emitted ${route.event_type} for ${documentId}: ${r.status}`, r);
  return r;
}

/** A person's answer: each item goes where they said; "none" closes it. */
async function routeAnswer(ctx: AgentContext, settings: Settings): Promise<HandlerResult> {
  const cb = CallbackSchema.safeParse(ctx.trigger.payload);
  if (!cb.success || cb.data.createdByAgentType !== 'triage')
    return { status: 'succeeded', summary: 'a request of another agent: nothing to do' };
  const a = AnswerSchema.safeParse(cb.data.answer ?? {});
  if (!a.success)
    return {
      status: 'needs_human',
      summary: `request ${cb.data.requestId} answered without an owner: ${issues(a.error)}`,
    };
  const routed: { documentId: string; route: string; status: string }[] = [];
  for (const [documentId, name] of Object.entries(a.data.routes)) {
    if (name === NO_ROUTE) {
      await ctx.log(`${documentId}: closed by ${cb.data.answeredBy ?? '?'} (no owner)`);
      routed.push({ documentId, route: NO_ROUTE, status: 'closed' });
      continue;
    }
    const route = settings.routes.find((r) => r.name === name);
    if (!route)
      return {
        status: 'needs_human',
        summary: `request ${cb.data.requestId}: unknown owner ${name} for ${documentId}`,
      };
    const sent = await handOver(ctx, route, documentId);
    if (sent.status === 'refused')
      return {
        status: 'needs_human',
        summary: `request ${cb.data.requestId}: hand-off of ${documentId} to ${name} refused: ${sent.detail ?? ''}`,
      };
    routed.push({ documentId, route: name, status: sent.status });
  }
  return {
    status: 'succeeded',
    summary: `request ${cb.data.requestId}: ${routed.map((r) => `${r.documentId} → ${r.route}`).join(', ')}`,
    data: { requestId: cb.data.requestId, routed },
  };
}
