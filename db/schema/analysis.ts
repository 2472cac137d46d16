import { pgTable, text, timestamp, jsonb, real, primaryKey, foreignKey } from 'drizzle-orm/pg-core';
import { organizations } from './organizations';

/**
 * One row per analysis request, written when the workflow receives it. Keyed by (org, request
 * id): request ids are the caller's, so two orgs may use the same one without touching each
 * other's rows.
 */
export const analysisRequests = pgTable(
  'analysis_requests',
  {
    requestId: text('request_id').notNull(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    workflowId: text('workflow_id').notNull().unique(),
    queryType: text('query_type').notNull(),
    request: jsonb('request').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'analysis_requests_org_request', columns: [t.orgId, t.requestId] })],
);

/** The output beside its validation and (when reviewed) the human decision. */
export const analysisResults = pgTable(
  'analysis_results',
  {
    requestId: text('request_id').notNull(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    outcome: text('outcome').notNull(),
    confidence: real('confidence').notNull(),
    result: jsonb('result').notNull(),
    validation: jsonb('validation').notNull(),
    decision: jsonb('decision'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'analysis_results_org_request', columns: [t.orgId, t.requestId] }),
    foreignKey({
      name: 'analysis_results_request_same_org',
      columns: [t.orgId, t.requestId],
      foreignColumns: [analysisRequests.orgId, analysisRequests.requestId],
    }),
  ],
);

/** A reviewer's decision: at most one per request. */
export const reviewDecisions = pgTable(
  'review_decisions',
  {
    requestId: text('request_id').notNull(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    decision: text('decision').notNull(),
    reviewerId: text('reviewer_id').notNull(),
    note: text('note'),
    corrections: jsonb('corrections'),
    decidedAt: timestamp('decided_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'review_decisions_org_request', columns: [t.orgId, t.requestId] }),
    foreignKey({
      name: 'review_decisions_request_same_org',
      columns: [t.orgId, t.requestId],
      foreignColumns: [analysisRequests.orgId, analysisRequests.requestId],
    }),
  ],
);
