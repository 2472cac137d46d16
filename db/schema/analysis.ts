import { pgTable, text, timestamp, jsonb, real } from 'drizzle-orm/pg-core';
import { organizations } from './organizations';

/** One row per analysis request, written when the workflow receives it. */
export const analysisRequests = pgTable('analysis_requests', {
  requestId: text('request_id').primaryKey(),
  orgId: text('org_id')
    .notNull()
    .references(() => organizations.id),
  workflowId: text('workflow_id').notNull().unique(),
  queryType: text('query_type').notNull(),
  request: jsonb('request').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The output beside its validation and (when reviewed) the human decision. */
export const analysisResults = pgTable('analysis_results', {
  requestId: text('request_id')
    .primaryKey()
    .references(() => analysisRequests.requestId),
  orgId: text('org_id')
    .notNull()
    .references(() => organizations.id),
  outcome: text('outcome').notNull(),
  confidence: real('confidence').notNull(),
  result: jsonb('result').notNull(),
  validation: jsonb('validation').notNull(),
  decision: jsonb('decision'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A reviewer's decision: at most one per request. */
export const reviewDecisions = pgTable('review_decisions', {
  requestId: text('request_id')
    .primaryKey()
    .references(() => analysisRequests.requestId),
  orgId: text('org_id')
    .notNull()
    .references(() => organizations.id),
  decision: text('decision').notNull(),
  reviewerId: text('reviewer_id').notNull(),
  note: text('note'),
  corrections: jsonb('corrections'),
  decidedAt: timestamp('decided_at', { withTimezone: true }).notNull(),
});
