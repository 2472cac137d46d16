import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import nodemailer from 'nodemailer';
import { isPlaceholderEmail } from '../../workflows/gateway/placeholder-email';

/** What a person is told: a new request assigned to them, or a reminder of an open one. */
export interface Notice {
  requestId: string;
  orgId: string;
  purpose: string;
  type: string;
  title: string;
  question: string;
  dueAt: string;
  assigneeUserId: string;
  email: string | null;
}

export type Channel = 'email' | 'webhook';
export type Delivery =
  | { channel: Channel; status: 'sent'; recipient: string; detail: string | null }
  | { channel: Channel; status: 'refused'; recipient: string; detail: string };

export interface Notifier {
  readonly channels: readonly Channel[];
  send(channel: Channel, n: Notice): Promise<Delivery>;
}

export interface NotifierConfig {
  smtpUrl?: string;
  from: string;
  webhookUrl?: string;
  webhookSecret?: string;
}

export const SIGNATURE_HEADER = 'x-countersign-signature';
/** The same for every attempt of one notice: a receiver drops a repeat it has seen. */
export const DELIVERY_HEADER = 'x-countersign-delivery';
export const TIMESTAMP_HEADER = 'x-countersign-timestamp';

/** HMAC-SHA256 over `<timestamp>.<body>`, as `sha256=<hex>`. */
export function signWebhook(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** For receivers: the signature matches (constant time) and is at most 5 minutes old. */
export function verifyWebhook(
  secret: string,
  headers: { signature: string | undefined; timestamp: string | undefined },
  body: string,
  nowMs = Date.now(),
): boolean {
  if (!headers.signature || !headers.timestamp) return false;
  const ts = Number(headers.timestamp);
  if (!Number.isFinite(ts) || Math.abs(nowMs - ts) > 5 * 60_000) return false;
  const want = Buffer.from(signWebhook(secret, headers.timestamp, body));
  const got = Buffer.from(headers.signature);
  return want.length === got.length && timingSafeEqual(want, got);
}

const subjectOf = (n: Notice): string =>
  n.purpose === 'assigned'
    ? `[Countersign] New ${n.type} request: ${n.title}`
    : `[Countersign] Reminder: ${n.title} (due ${n.dueAt.slice(0, 10)})`;

/**
 * The notifier: email through nodemailer (SMTP) and a signed webhook, whichever are
 * configured. A placeholder address (reserved domains, isPlaceholderEmail) is refused on
 * every channel, unconditionally — never sent, not even to the webhook.
 */
/**
 * One notice's delivery id, stable across attempts: sending is at-least-once (a worker that
 * dies after the send and before its record is retried and sends again), so every attempt
 * carries the same id — the email's Message-ID, the webhook's delivery header and body field —
 * and receivers deduplicate on it.
 */
export function deliveryId(requestId: string, purpose: string, channel: Channel): string {
  return createHash('sha256')
    .update(`${requestId}\n${purpose}\n${channel}`)
    .digest('hex')
    .slice(0, 32);
}

export function createNotifier(cfg: NotifierConfig): Notifier {
  const transport = cfg.smtpUrl ? nodemailer.createTransport(cfg.smtpUrl) : null;
  const channels: Channel[] = [];
  if (transport) channels.push('email');
  if (cfg.webhookUrl) {
    if (!cfg.webhookSecret)
      throw new Error('NOTIFY_WEBHOOK_URL needs NOTIFY_WEBHOOK_SECRET to sign its calls');
    channels.push('webhook');
  }
  return {
    channels,
    async send(channel, n) {
      if (!n.email)
        return {
          channel,
          status: 'refused',
          recipient: n.assigneeUserId,
          detail: `${n.assigneeUserId} has no email address`,
        };
      if (isPlaceholderEmail(n.email))
        return {
          channel,
          status: 'refused',
          recipient: n.email,
          detail: `placeholder address ${n.email} is never notified`,
        };
      if (channel === 'email') {
        if (!transport) throw new Error('no SMTP transport configured');
        const info = (await transport.sendMail({
          from: cfg.from,
          to: n.email,
          subject: subjectOf(n),
          text: `${n.question}\n\nRequest ${n.requestId} (${n.orgId}), due ${n.dueAt}.\nAnswer with: npm run cli -- decide ${n.requestId} --org ${n.orgId} ...\n`,
          headers: { 'X-Countersign-Request': n.requestId },
          messageId: `<${deliveryId(n.requestId, n.purpose, channel)}@${cfg.from.split('@')[1] ?? 'countersign'}>`,
        })) as { messageId?: string };
        return { channel, status: 'sent', recipient: n.email, detail: info.messageId ?? null };
      }
      if (!cfg.webhookUrl || !cfg.webhookSecret) throw new Error('no webhook configured');
      const delivery = deliveryId(n.requestId, n.purpose, channel);
      const body = JSON.stringify({
        event: n.purpose === 'assigned' ? 'request.assigned' : 'request.reminder',
        deliveryId: delivery,
        requestId: n.requestId,
        orgId: n.orgId,
        purpose: n.purpose,
        type: n.type,
        title: n.title,
        dueAt: n.dueAt,
        assignee: { userId: n.assigneeUserId, email: n.email },
      });
      const timestamp = String(Date.now());
      const res = await fetch(cfg.webhookUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [TIMESTAMP_HEADER]: timestamp,
          [SIGNATURE_HEADER]: signWebhook(cfg.webhookSecret, timestamp, body),
          [DELIVERY_HEADER]: delivery,
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) throw new Error(`webhook answered ${res.status}`);
      return { channel, status: 'sent', recipient: cfg.webhookUrl, detail: `HTTP ${res.status}` };
    },
  };
}
