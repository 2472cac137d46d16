import { sql } from 'drizzle-orm';
import {
  pgTable,
  text,
  timestamp,
  integer,
  jsonb,
  primaryKey,
  index,
  uniqueIndex,
  check,
} from 'drizzle-orm/pg-core';
import { organizations } from './organizations';

/**
 * A question to a person (or, for a delegation, to another agent): typed, routed (the route
 * recorded), due and expiring, reminders and re-asks counted, and naming what created it.
 * Gateway approvals and analysis reviews have a row too (`link_*`), so one inbox query by
 * (org, assignee) shows every open item of a person.
 */
export const humanRequests = pgTable(
  'human_requests',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    type: text('type').notNull(),
    status: text('status').notNull(),
    title: text('title').notNull(),
    question: text('question').notNull(),
    answerSchema: jsonb('answer_schema').notNull(),
    evidence: jsonb('evidence').notNull(),
    assigneeUserId: text('assignee_user_id'),
    route: text('route'),
    routeDetail: text('route_detail'),
    delegateAgentType: text('delegate_agent_type'),
    createdByRunId: text('created_by_run_id'),
    createdByAgentType: text('created_by_agent_type'),
    createdByWorkflowId: text('created_by_workflow_id'),
    createdByUserId: text('created_by_user_id'),
    callback: jsonb('callback').notNull(),
    workflowId: text('workflow_id').notNull(),
    linkKind: text('link_kind'),
    linkWorkflowId: text('link_workflow_id'),
    linkKey: text('link_key'),
    dedupKey: text('dedup_key'),
    hop: integer('hop').notNull().default(0),
    remindersSent: integer('reminders_sent').notNull().default(0),
    reasks: integer('reasks').notNull().default(0),
    answer: jsonb('answer'),
    answeredBy: text('answered_by'),
    detail: text('detail'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    dueAt: timestamp('due_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('human_requests_inbox').on(t.orgId, t.assigneeUserId, t.status),
    index('human_requests_run').on(t.createdByRunId),
    index('human_requests_dedup').on(t.orgId, t.type, t.dedupKey, t.createdAt),
    // One inbox entry per waiting gateway submission / analysis review.
    uniqueIndex('human_requests_link').on(t.linkKind, t.linkWorkflowId),
    check(
      'human_requests_type_known',
      sql`${t.type} in ('approval','verification','master_data','configuration','classification','delegation','review')`,
    ),
    check(
      'human_requests_status_known',
      sql`${t.status} in ('open','completed','expired','failed','cancelled')`,
    ),
    check(
      'human_requests_route_known',
      sql`${t.route} is null or ${t.route} in ('assignee','owner','admin','unrouted')`,
    ),
    check(
      'human_requests_link_kind_known',
      sql`${t.linkKind} is null or ${t.linkKind} in ('gateway_approval','analysis_review')`,
    ),
  ],
);

/**
 * Everything that happened to a request, in order: opened (with its route), reminded,
 * re-asked (an unclear answer), refused (a hostile answer), answered, expired, failed.
 * seq is the workflow's own counter, so a retried write is the same row.
 */
export const humanRequestEvents = pgTable(
  'human_request_events',
  {
    requestId: text('request_id')
      .notNull()
      .references(() => humanRequests.id),
    seq: integer('seq').notNull(),
    kind: text('kind').notNull(),
    actor: text('actor'),
    detail: text('detail'),
    data: jsonb('data'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.requestId, t.seq] }),
    check(
      'human_request_events_kind_known',
      sql`${t.kind} in ('opened','reminded','reasked','refused','answered','expired','failed','cancelled','reescalated')`,
    ),
  ],
);

/**
 * Each notification sent (assignment, reminder) per channel, keyed by request, purpose and
 * channel: a retried activity finds its row and does not send twice. A refused address
 * (placeholder) is a row too, with status refused.
 */
export const humanRequestNotifications = pgTable(
  'human_request_notifications',
  {
    requestId: text('request_id')
      .notNull()
      .references(() => humanRequests.id),
    purpose: text('purpose').notNull(),
    channel: text('channel').notNull(),
    recipient: text('recipient').notNull(),
    status: text('status').notNull(),
    detail: text('detail'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.requestId, t.purpose, t.channel] }),
    check(
      'human_request_notifications_status_known',
      sql`${t.status} in ('sent','refused','failed')`,
    ),
  ],
);
