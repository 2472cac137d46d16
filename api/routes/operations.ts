import { z } from 'zod';
import { costRollup } from '../../db/repositories/agent-runs';
import { membershipsOf } from '../../db/repositories/inbox';
import { authenticatePrincipal } from '../auth';
import { ACTIONS } from '../../workflows/roles';
import { HttpError } from '../http-error';
import { microUsdToUsd, queueStats, renderMetrics } from '../operations';
import { CostQuery, CostResponse, OrgParams, QueueStatsResponse } from '../schemas';
import { json, problems, ok, secured } from '../http';
import type { RouteKit } from './kit';

/** Operations: queue statistics and the Prometheus metrics of the orgs a person runs. */
export function registerOperationsRoutes(kit: RouteKit): void {
  const { app, add, route, needs, deps, sessionKey, credentials } = kit;
  add(
    route({
      method: 'get',
      path: '/v1/orgs/{org}/costs',
      tags: ['operations'],
      summary: 'Recorded model cost by agent, run or month',
      security: secured,
      middleware: [needs('read_costs')],
      request: { params: OrgParams, query: CostQuery },
      responses: { 200: ok('Cost rollup', CostResponse), ...problems(400, 401, 403) },
    }),
    async (c) => {
      const caller = c.get('caller');
      const q = CostQuery.parse(c.req.query());
      const rows = await costRollup(deps.db, q.by, {
        orgId: caller.orgId,
        ...(q.month ? { month: q.month } : {}),
      });
      return json(200, {
        orgId: caller.orgId,
        by: q.by,
        month: q.month ?? null,
        rows: rows.map((r) => ({
          ...r,
          costMicroUsd: r.costMicroUsd.toString(),
          costUsd: microUsdToUsd(r.costMicroUsd),
        })),
      });
    },
  );

  add(
    route({
      method: 'get',
      path: '/v1/orgs/{org}/queue',
      tags: ['operations'],
      summary:
        'Queue statistics: task queue backlog, submissions, analyses, events and agent runs by state',
      security: secured,
      middleware: [needs('read')],
      request: { params: OrgParams },
      responses: { 200: ok('Queue statistics', QueueStatsResponse), ...problems(401, 403) },
    }),
    async (c) => {
      const caller = c.get('caller');
      return json(200, await queueStats(deps.db, deps.client, deps.taskQueue, caller.orgId));
    },
  );

  app.get('/metrics', async (c) => {
    const p = await authenticatePrincipal(deps.db, credentials(c), sessionKey);
    if (p.kind !== 'user')
      throw new HttpError(403, 'ActionNotPermitted', 'Metrics are read by an owner or admin');
    const readable: readonly string[] = ACTIONS.read_metrics;
    // A person's key reads only the org it was issued for.
    const orgs = (await membershipsOf(deps.db, p.userId))
      .filter((m) => m.orgId === p.orgId && m.roles.some((r) => readable.includes(r)))
      .map((m) => m.orgId);
    if (orgs.length === 0)
      throw new HttpError(
        403,
        'ActionNotPermitted',
        `User ${p.userId} is owner or admin of no org`,
      );
    return new Response(await renderMetrics(deps.db, deps.client, deps.taskQueue, orgs), {
      status: 200,
      headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' },
    });
  });
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/metrics',
    tags: ['operations'],
    summary: 'Prometheus text for the orgs the caller owns or administers',
    security: secured,
    responses: {
      200: {
        description: 'text/plain; version=0.0.4',
        content: { 'text/plain': { schema: z.string() } },
      },
      ...problems(401, 403),
    },
  });
}
