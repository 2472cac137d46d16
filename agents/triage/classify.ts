import { z } from 'zod';

/**
 * Triage's routing rule, pure: which route's cues the text carries. A route wins only with
 * at least `minCues` DISTINCT cues, while no other route reaches `minCues` and none has more
 * than half its cues — a filing that mentions an invoice, or a bill that mentions a year end,
 * is not misrouted, and a text carrying both vocabularies goes to a person. Routes excluded by the caller (the owner the item already
 * failed at) never win: when the best route is excluded, the item goes to a person.
 */
export const RouteSchema = z
  .object({
    name: z.string().regex(/^[a-z][a-z0-9_]{0,40}$/),
    event_type: z.string().regex(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/),
    description: z.string().min(1).max(300),
    cues: z
      .array(
        z
          .string()
          .min(1)
          .max(200)
          .refine(
            (re) => {
              try {
                new RegExp(re, 'i');
                return true;
              } catch {
                return false;
              }
            },
            { message: 'a regular expression' },
          ),
      )
      .min(1)
      .max(50),
  })
  .strict();
export type Route = z.infer<typeof RouteSchema>;

export interface RouteScore {
  route: string;
  cues: string[];
}

export type RoutingDecision =
  | { kind: 'route'; route: Route; scores: RouteScore[] }
  | { kind: 'person'; reason: string; suggestion: string | null; scores: RouteScore[] };

export function scoreRoutes(text: string, routes: readonly Route[]): RouteScore[] {
  const flat = text.replace(/\s+/g, ' ');
  return routes
    .map((r) => ({
      route: r.name,
      cues: r.cues.filter((c) => new RegExp(c, 'i').test(flat)),
    }))
    .sort((a, b) => b.cues.length - a.cues.length || a.route.localeCompare(b.route));
}

export function decideRoute(
  text: string,
  routes: readonly Route[],
  opts: { minCues: number; excludedEventTypes: readonly string[] },
): RoutingDecision {
  const scores = scoreRoutes(text, routes);
  const [best, second] = scores;
  if (!best || best.cues.length < opts.minCues)
    return {
      kind: 'person',
      reason: `no route has ${opts.minCues} cues in the text${best && best.cues.length > 0 ? ` (best: ${best.route} with ${best.cues.length})` : ''}`,
      suggestion: null,
      scores,
    };
  if (second && (second.cues.length >= opts.minCues || best.cues.length < 2 * second.cues.length))
    return {
      kind: 'person',
      reason: `ambiguous: ${best.route} (${best.cues.length} cues) and ${second.route} (${second.cues.length})`,
      suggestion: null,
      scores,
    };
  const route = routes.find((r) => r.name === best.route)!;
  if (opts.excludedEventTypes.includes(route.event_type))
    return {
      kind: 'person',
      reason: `it reads as ${route.name}, but it came from that owner (${route.event_type}) and failed there`,
      suggestion: route.name,
      scores,
    };
  return { kind: 'route', route, scores };
}
