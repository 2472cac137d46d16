import { z } from 'zod';
import type { InboxItem } from './items';

/**
 * The list's filters and order, from the page's query string (zod: an unknown value is
 * ignored rather than failing the page — a stale bookmark still opens the inbox).
 */
const Any = z.literal('').or(z.undefined());
export const InboxQuerySchema = z.object({
  org: z.string().max(200).optional().catch(undefined),
  type: z.enum(['approval', 'review', 'request']).or(Any).catch(undefined),
  lane: z.enum(['low', 'moderate', 'high', 'none']).or(Any).catch(undefined),
  due: z.enum(['overdue', 'today', 'week']).or(Any).catch(undefined),
  assignee: z.string().max(200).optional().catch(undefined),
  sort: z.enum(['due', 'waiting', 'amount', 'type', 'lane', 'org']).catch('due').default('due'),
  dir: z.enum(['asc', 'desc']).catch('asc').default('asc'),
});
export type InboxQuery = z.infer<typeof InboxQuerySchema>;

const LANE_RANK: Record<string, number> = { high: 3, moderate: 2, low: 1 };
const DAY_MS = 86_400_000;

function dueWithin(i: InboxItem, due: InboxQuery['due'], nowMs: number): boolean {
  if (!due) return true;
  if (!i.dueAt) return false;
  const at = Date.parse(i.dueAt);
  if (due === 'overdue') return at < nowMs;
  return at < nowMs + (due === 'today' ? DAY_MS : 7 * DAY_MS);
}

/** The tasks the filters keep, in the order asked for (ties by due date, then id). */
export function applyFilters(items: InboxItem[], q: InboxQuery, nowMs: number): InboxItem[] {
  const kept = items.filter(
    (i) =>
      (!q.org || i.orgId === q.org) &&
      (!q.type || i.kind === q.type) &&
      (!q.lane || (q.lane === 'none' ? i.lane === null : i.lane === q.lane)) &&
      (!q.assignee || i.assignee === q.assignee) &&
      dueWithin(i, q.due, nowMs),
  );
  const key = (i: InboxItem): string | number | bigint => {
    switch (q.sort) {
      case 'waiting':
        return i.createdAt ?? '9999';
      case 'amount':
        return i.amount ? BigInt(i.amount.minor) : -1n;
      case 'type':
        return `${i.kind}:${i.type}`;
      case 'lane':
        return LANE_RANK[i.lane ?? ''] ?? 0;
      case 'org':
        return i.orgId;
      case 'due':
        return i.dueAt ?? '9999';
    }
  };
  const sign = q.dir === 'desc' ? -1 : 1;
  return [...kept].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    const c = ka < kb ? -1 : ka > kb ? 1 : 0;
    return c !== 0
      ? c * sign
      : (a.dueAt ?? '9999').localeCompare(b.dueAt ?? '9999') || a.id.localeCompare(b.id);
  });
}

/** The query string of these filters with some changed (links that keep the rest). */
export function queryString(q: InboxQuery, change: Partial<InboxQuery> = {}): string {
  const all = { ...q, ...change };
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(all))
    if (
      v !== undefined &&
      v !== '' &&
      !(k === 'sort' && v === 'due') &&
      !(k === 'dir' && v === 'asc')
    )
      params.set(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : '';
}
