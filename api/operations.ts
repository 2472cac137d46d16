import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { Db } from '../db/connection';
import {
  agentRunsByState,
  analysesByOutcome,
  approvalLatency,
  APPROVAL_LATENCY_BUCKETS,
  costByOrgAgent,
  eventsByStateOf,
  submissionsByStatus,
} from '../db/repositories/operations';
import { deploymentQueues } from '../workflows/task-queue';

/**
 * Queue statistics and the Prometheus metrics, both scoped to the orgs the caller may see.
 * The task queue backlog is the Temporal server's approximate count (null when the server
 * does not report it).
 */
export async function taskQueueBacklog(
  client: Client,
  taskQueue: string,
): Promise<{ workflow: number | null; activity: number | null }> {
  const one = async (type: temporal.api.enums.v1.TaskQueueType): Promise<number | null> => {
    try {
      const r = await client.workflowService.describeTaskQueue({
        namespace: client.options.namespace,
        taskQueue: {
          name: taskQueue,
          kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL,
        },
        taskQueueType: type,
        reportStats: true,
      });
      const n = r.stats?.approximateBacklogCount;
      return n === undefined || n === null ? null : Number(n);
    } catch {
      return null;
    }
  };
  const [workflow, activity] = await Promise.all([
    one(temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW),
    one(temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY),
  ]);
  return { workflow, activity };
}

type Backlog = { workflow: number | null; activity: number | null };

/** The backlog of every queue of the base, by queue name. */
export async function deploymentBacklog(
  client: Client,
  baseQueue: string,
): Promise<Record<string, Backlog>> {
  const names = deploymentQueues(baseQueue);
  const each = await Promise.all(names.map((n) => taskQueueBacklog(client, n)));
  return Object.fromEntries(names.map((n, i) => [n, each[i] as Backlog]));
}

/** Summed over queues; null only when no queue reported a count. */
function totalBacklog(queues: Record<string, Backlog>): Backlog {
  const sum = (k: keyof Backlog) =>
    Object.values(queues).reduce<number | null>(
      (n, b) => (b[k] === null ? n : (n ?? 0) + (b[k] as number)),
      null,
    );
  return { workflow: sum('workflow'), activity: sum('activity') };
}

export async function queueStats(db: Db, client: Client, taskQueue: string, orgId: string) {
  const [queues, submissions, analyses, events, agentRuns] = await Promise.all([
    deploymentBacklog(client, taskQueue),
    submissionsByStatus(db, [orgId]),
    analysesByOutcome(db, [orgId]),
    eventsByStateOf(db, [orgId]),
    agentRunsByState(db, [orgId]),
  ]);
  return {
    orgId,
    taskQueue,
    backlog: totalBacklog(queues),
    queues,
    submissions: submissions[orgId] ?? {},
    analyses: analyses[orgId] ?? {},
    events: events[orgId] ?? {},
    agentRuns: agentRuns[orgId] ?? {},
  };
}

/** Micro-dollars as an exact decimal string of dollars. */
export function microUsdToUsd(micro: bigint): string {
  const neg = micro < 0n;
  const a = neg ? -micro : micro;
  const frac = (a % 1_000_000n).toString().padStart(6, '0');
  return `${neg ? '-' : ''}${a / 1_000_000n}.${frac}`;
}

const label = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
const labels = (l: Record<string, string>) =>
  `{${Object.entries(l)
    .map(([k, v]) => `${k}="${label(v)}"`)
    .join(',')}}`;

/** The Prometheus text exposition (format 0.0.4) for these orgs. */
export async function renderMetrics(
  db: Db,
  client: Client,
  taskQueue: string,
  orgIds: string[],
): Promise<string> {
  const [queues, submissions, analyses, events, runs, latency, cost] = await Promise.all([
    deploymentBacklog(client, taskQueue),
    submissionsByStatus(db, orgIds),
    analysesByOutcome(db, orgIds),
    eventsByStateOf(db, orgIds),
    agentRunsByState(db, orgIds),
    approvalLatency(db, orgIds),
    costByOrgAgent(db, orgIds),
  ]);
  const out: string[] = [];
  const family = (name: string, type: string, help: string) =>
    out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
  family(
    'countersign_task_queue_backlog',
    'gauge',
    'Approximate tasks waiting in each Temporal task queue (one per domain, and the slots).',
  );
  for (const [queue, backlog] of Object.entries(queues))
    for (const [type, n] of Object.entries(backlog))
      if (n !== null)
        out.push(`countersign_task_queue_backlog${labels({ task_queue: queue, type })} ${n}`);
  const counts = (
    name: string,
    help: string,
    by: string,
    data: Record<string, Record<string, number>>,
  ) => {
    family(name, 'gauge', help);
    for (const [org, m] of Object.entries(data))
      for (const [k, n] of Object.entries(m)) out.push(`${name}${labels({ org, [by]: k })} ${n}`);
  };
  counts(
    'countersign_gateway_submissions',
    'Gateway submissions by status.',
    'status',
    submissions,
  );
  counts(
    'countersign_analyses',
    'Analysis runs by outcome (awaiting_review: open reviews).',
    'outcome',
    analyses,
  );
  counts('countersign_events', 'Events by state.', 'state', events);
  counts('countersign_agent_runs', 'Agent runs by state.', 'state', runs);
  family(
    'countersign_approval_latency_seconds',
    'histogram',
    'Time from submission to the decision that closed the vote, for writes that needed approval.',
  );
  for (const h of latency) {
    APPROVAL_LATENCY_BUCKETS.forEach((b, i) =>
      out.push(
        `countersign_approval_latency_seconds_bucket${labels({ org: h.orgId, le: String(b) })} ${h.buckets[i]}`,
      ),
    );
    out.push(
      `countersign_approval_latency_seconds_bucket${labels({ org: h.orgId, le: '+Inf' })} ${h.count}`,
      `countersign_approval_latency_seconds_sum${labels({ org: h.orgId })} ${h.sumSeconds}`,
      `countersign_approval_latency_seconds_count${labels({ org: h.orgId })} ${h.count}`,
    );
  }
  family('countersign_model_cost_usd_total', 'counter', 'Recorded model cost in US dollars.');
  for (const c of cost)
    out.push(
      `countersign_model_cost_usd_total${labels({ org: c.orgId, agent: c.agentType })} ${microUsdToUsd(c.costMicroUsd)}`,
    );
  family('countersign_model_calls_total', 'counter', 'Recorded model calls.');
  for (const c of cost)
    out.push(
      `countersign_model_calls_total${labels({ org: c.orgId, agent: c.agentType })} ${c.calls}`,
    );
  return `${out.join('\n')}\n`;
}
