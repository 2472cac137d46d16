/**
 * The roles a member holds in an organization, and what each may do. Pure, so every side
 * shares one table: the database's memberships (db/schema), the gateway's grant payloads, the
 * API's checks (api/authz.ts) and the CLI's key checks (client/credentials.ts).
 */
export const ROLES = ['owner', 'admin', 'reviewer', 'approver', 'analyst', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What each role may do through the API and the CLI, checked before anything reaches a
 * workflow (the gateway checks again per write kind). Approvals are checked by their Update
 * alone — self-approval first, then the role — so the API refuses them with the workflow's
 * own type (SelfApproval, ApproverNotAuthorized); a review's role is checked there too (type
 * ReviewerNotAuthorized) and again by its Update. Reading is every member's; a viewer only
 * reads.
 */
export const ACTIONS = {
  read: ['owner', 'admin', 'reviewer', 'approver', 'analyst', 'viewer'],
  submit_write: ['owner', 'admin', 'reviewer', 'approver', 'analyst'],
  approve_write: ['owner', 'admin', 'approver'],
  start_analysis: ['owner', 'admin', 'reviewer', 'approver', 'analyst'],
  /** Adding a document to the org's store (the CLI's ingest; email and statements have their own). */
  ingest_document: ['owner', 'admin', 'reviewer', 'approver', 'analyst'],
  review_analysis: ['owner', 'admin', 'reviewer'],
  submit_event: ['owner', 'admin', 'analyst'],
  /** Forwarding an email into intake (its attachments become documents, it an event). */
  receive_email: ['owner', 'admin', 'reviewer', 'approver', 'analyst'],
  /** A connector's statement file into intake (its lines are source data, not books). */
  import_statement: ['owner', 'admin', 'analyst'],
  answer_request: ['owner', 'admin', 'reviewer', 'approver', 'analyst'],
  read_costs: ['owner', 'admin'],
  read_metrics: ['owner', 'admin'],
  /** Decrypting the org's workflow history through /codec (the Temporal Web UI, operators). */
  read_history: ['owner', 'admin'],
} as const satisfies Record<string, readonly Role[]>;
export type Action = keyof typeof ACTIONS;

/** Actions an agent key may take in its own org (the gateway checks its stored record per kind). */
export const AGENT_ACTIONS: readonly Action[] = [
  'read',
  'ingest_document',
  'submit_write',
  'start_analysis',
  'submit_event',
  'receive_email',
  'import_statement',
];
