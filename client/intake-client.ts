import type { Client } from '@temporalio/client';
import type { Db } from '../db/connection';
import {
  INTAKE_EVENT_TYPES,
  emailReceivedPayload,
  importStatementFile,
  processMailFolder,
  statementImportedPayloads,
  type ImportStatementInput,
  type MailFolderOutcome,
} from '../activities/intake';
import type { EmailLimits } from '../activities/intake/email';
import { ingestEmailAttachments } from './email-attachments';
import { receiveInboundEmail } from './receive-email';
import { EventsClient, type Accepted, type EventsClientOptions } from './events-client';

/**
 * Intake → events: what arrives by email (API or watched folder) or by a connector sync (a
 * bank statement file) becomes events through the one entry point, acceptEvent — deduplicated
 * by payload, recorded with its state, and dispatched to the agents that subscribe. A file or
 * message that cannot be read is refused whole: no event, nothing half-imported.
 */
export interface IntakeDeps extends EventsClientOptions {
  client: Client;
  db: Db;
  /** The task queue of the ingestion workflow for attachments (the worker's). */
  taskQueue?: string;
}

export type StatementIntakeResult =
  | { ok: true; format: string; events: Accepted[]; lines: number }
  | { ok: false; error: { code: string; file: string; line: number | null; message: string } };

/** One connector sync: a statement file imported whole, then one event per statement in it. */
export async function importStatementAsEvents(
  deps: IntakeDeps,
  input: { orgId: string; connectorId: string } & ImportStatementInput,
): Promise<StatementIntakeResult> {
  const imported = importStatementFile(input);
  if (!imported.ok) return { ok: false, error: imported.error };
  const payloads = statementImportedPayloads({
    connectorId: input.connectorId,
    fileName: input.file,
    bytes: input.bytes,
    statements: imported.statements,
  });
  const events = new EventsClient(deps.client, deps.db, deps);
  const accepted: Accepted[] = [];
  for (const payload of payloads)
    accepted.push(
      await events.acceptEvent({
        orgId: input.orgId,
        type: INTAKE_EVENT_TYPES.statementImported,
        source: 'connector',
        payload,
      }),
    );
  return {
    ok: true,
    format: imported.format,
    events: accepted,
    lines: imported.statements.reduce((n, s) => n + s.lines.length, 0),
  };
}

/** One inbound message (raw MIME): attachments ingested as documents, then `email.received`. */
export async function receiveEmailAsEvent(
  deps: IntakeDeps,
  input: {
    orgId: string;
    raw: Uint8Array;
    channel: 'api' | 'folder';
    limits?: Partial<EmailLimits>;
  },
) {
  const received = await receiveInboundEmail(
    { db: deps.db, client: deps.client, ...(deps.taskQueue ? { taskQueue: deps.taskQueue } : {}) },
    input,
  );
  if (!received.ok) return received;
  const event = await new EventsClient(deps.client, deps.db, deps).acceptEvent({
    orgId: input.orgId,
    type: INTAKE_EVENT_TYPES.emailReceived,
    source: 'email',
    payload: received.payload,
  });
  return { ok: true as const, payload: received.payload, event };
}

/** One pass over a watched mail folder: each readable message becomes an `email.received` event. */
export function processMailFolderAsEvents(
  deps: IntakeDeps,
  input: { orgId: string; dir: string; limits?: Partial<EmailLimits> },
): Promise<MailFolderOutcome[]> {
  return processMailFolder({
    dir: input.dir,
    ...(input.limits ? { limits: input.limits } : {}),
    handle: async (email) => {
      const { documents, skipped } = await ingestEmailAttachments(
        {
          db: deps.db,
          client: deps.client,
          ...(deps.taskQueue ? { taskQueue: deps.taskQueue } : {}),
        },
        { orgId: input.orgId, email },
      );
      return new EventsClient(deps.client, deps.db, deps).acceptEvent({
        orgId: input.orgId,
        type: INTAKE_EVENT_TYPES.emailReceived,
        source: 'email',
        payload: emailReceivedPayload({ channel: 'folder', email, documents, skipped }),
      });
    },
  });
}
