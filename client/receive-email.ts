import type { Client } from '@temporalio/client';
import type { Db } from '../db/connection';
import {
  parseInboundEmail,
  type EmailLimits,
  type EmailParseError,
} from '../activities/intake/email';
import { ingestEmailAttachments } from './email-attachments';
import {
  emailReceivedPayload,
  type EmailReceivedPayload,
} from '../activities/intake/event-payloads';

/**
 * One inbound message, from either channel (API or watched folder): parsed, its document
 * attachments ingested, and the `email.received` payload built. Emitting the event is the
 * events domain's (acceptEvent), wired at the merge.
 */
export async function receiveInboundEmail(
  deps: { db: Db; client: Client; taskQueue?: string },
  input: {
    orgId: string;
    raw: Uint8Array;
    channel: 'api' | 'folder';
    limits?: Partial<EmailLimits>;
  },
): Promise<{ ok: true; payload: EmailReceivedPayload } | { ok: false; error: EmailParseError }> {
  const parsed = await parseInboundEmail(input.raw, input.limits);
  if (!parsed.ok) return parsed;
  const { documents, skipped } = await ingestEmailAttachments(deps, {
    orgId: input.orgId,
    email: parsed.email,
  });
  return {
    ok: true,
    payload: emailReceivedPayload({
      channel: input.channel,
      email: parsed.email,
      documents,
      skipped,
    }),
  };
}
