import { createHmac, timingSafeEqual } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppConfig } from '../../config/env';
import { ConfigError } from '../../config/env';
import type { Q } from '../../db/repositories/ledger';
import {
  AuditHeadSchema,
  auditHead,
  verifyAuditChain,
  type AuditHead,
  type AuditVerification,
} from '../../db/repositories/audit';
import { secretFile } from '../identity/decision-secret';

/**
 * Audit anchors: an org's chain head, signed (HMAC-SHA256 under a key kept outside the
 * database) and recorded outside the chain. The chain alone proves that no row was edited in
 * place; only an anchor shows that rows after it were cut off, that an org's rows were all
 * deleted, or that the chain was rewritten from an edited row on (every later hash
 * recomputed): the anchored row is then missing, or hashes differently.
 */
const TOKEN_PREFIX = 'csah1';
const MIN_KEY_BYTES = 32;

/** The anchor key: AUDIT_ANCHOR_SECRET, else the file (generated once, mode 0600). */
export function auditAnchorSecret(
  cfg: Pick<AppConfig, 'AUDIT_ANCHOR_SECRET' | 'AUDIT_ANCHOR_SECRET_FILE'>,
): string {
  const [secret, source] =
    cfg.AUDIT_ANCHOR_SECRET !== undefined
      ? [cfg.AUDIT_ANCHOR_SECRET, 'AUDIT_ANCHOR_SECRET']
      : [
          secretFile(cfg.AUDIT_ANCHOR_SECRET_FILE),
          `AUDIT_ANCHOR_SECRET_FILE (${cfg.AUDIT_ANCHOR_SECRET_FILE})`,
        ];
  if (Buffer.byteLength(secret, 'utf8') < MIN_KEY_BYTES)
    throw new ConfigError(
      `${source} holds ${Buffer.byteLength(secret, 'utf8')} bytes; the audit anchor key needs at least ${MIN_KEY_BYTES}`,
    );
  return secret;
}

const mac = (secret: string, body: string) =>
  createHmac('sha256', secret).update(`countersign-audit-anchor-v1.${body}`).digest('base64url');

/** A head as a signed token: `csah1.<head as base64url JSON>.<HMAC>`, one word to paste. */
export function signAuditHead(secret: string, head: AuditHead): string {
  const body = Buffer.from(JSON.stringify(AuditHeadSchema.parse(head)), 'utf8').toString(
    'base64url',
  );
  return `${TOKEN_PREFIX}.${body}.${mac(secret, body)}`;
}

export class AnchorSignatureError extends Error {
  override name = 'AnchorSignatureError';
}

/** The head a token names, once its signature is checked (constant time). */
export function openSignedHead(secret: string, token: string): AuditHead {
  const parts = token.trim().split('.');
  if (parts.length !== 3 || parts[0] !== TOKEN_PREFIX)
    throw new AnchorSignatureError(`not a signed audit head (${TOKEN_PREFIX}.<head>.<signature>)`);
  const [, body = '', sig = ''] = parts;
  const want = Buffer.from(mac(secret, body));
  const got = Buffer.from(sig);
  if (got.length !== want.length || !timingSafeEqual(got, want))
    throw new AnchorSignatureError('the signature of the audit head does not verify');
  return AuditHeadSchema.parse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
}

/** One line of the anchors file: the head in clear (for people and sinks) and its token. */
export const AnchorLineSchema = AuditHeadSchema.extend({ token: z.string() });
export type AnchorLine = z.infer<typeof AnchorLineSchema>;

export async function signedHeadOf(q: Q, secret: string, orgId: string): Promise<AnchorLine> {
  const head = await auditHead(q, orgId);
  return { ...head, token: signAuditHead(secret, head) };
}

/** Appends anchors to the file, one JSON object per line (the file is only ever appended). */
export function appendAnchors(file: string, lines: AnchorLine[]): void {
  if (lines.length === 0) return;
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''), { mode: 0o644 });
}

export interface RecordedAnchors {
  /** The last anchor per org whose signature verifies. */
  latest: Map<string, AuditHead>;
  /** Lines that are not a signed head under this key (a tampered or foreign file). */
  rejected: { line: number; reason: string }[];
}

/** The anchors file read back: only heads whose token verifies count (the clear copy is ignored). */
export function readAnchors(file: string, secret: string): RecordedAnchors {
  const out: RecordedAnchors = { latest: new Map(), rejected: [] };
  if (!existsSync(file)) return out;
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((text, i) => {
      if (!text.trim()) return;
      try {
        const line = AnchorLineSchema.parse(JSON.parse(text));
        const head = openSignedHead(secret, line.token);
        out.latest.set(head.orgId, head);
      } catch (err) {
        out.rejected.push({
          line: i + 1,
          reason: err instanceof Error ? err.message : String(err),
        });
      }
    });
  return out;
}

export interface AnchorCheck {
  orgSeq: string | null;
  hash: string;
  exportedAt: string;
  ok: boolean;
  /** truncated: the anchored row is gone (cut off, or every row deleted); rechained: it hashes otherwise. */
  kind: 'truncated' | 'rechained' | null;
  detail: string | null;
}
export type AnchoredVerification = AuditVerification & { anchor: AnchorCheck | null };

/**
 * The chain verified on its own, then against the anchor: the anchored row must still stand
 * at its place with the anchored hash (the chain after it may only have grown).
 */
export async function verifyAgainstAnchor(
  q: Q,
  orgId: string,
  anchor: AuditHead | null,
): Promise<AnchoredVerification> {
  const v = await verifyAuditChain(q, orgId);
  if (!anchor) return { ...v, anchor: null };
  const base = { orgSeq: anchor.orgSeq, hash: anchor.hash, exportedAt: anchor.exportedAt };
  if (anchor.orgId !== orgId) throw new Error(`the anchor is of org ${anchor.orgId}, not ${orgId}`);
  if (anchor.orgSeq === null)
    return { ...v, anchor: { ...base, ok: true, kind: null, detail: null } };
  const r = await q.execute(
    sql`select row_hash from audit_log where org_id = ${orgId} and org_seq = ${anchor.orgSeq}`,
  );
  const row = z.object({ row_hash: z.string().nullable() }).optional().parse(r.rows[0]);
  let check: AnchorCheck;
  if (!row)
    check = {
      ...base,
      ok: false,
      kind: 'truncated',
      detail:
        v.rows === 0
          ? `every row of ${orgId} is gone; the anchor of ${anchor.exportedAt} names ${anchor.rows} rows up to #${anchor.orgSeq}`
          : `row #${anchor.orgSeq} (anchored ${anchor.exportedAt}) is gone: the chain has ${v.rows} rows, the anchor ${anchor.rows}`,
    };
  else if (row.row_hash !== anchor.hash)
    check = {
      ...base,
      ok: false,
      kind: 'rechained',
      detail: `row #${anchor.orgSeq} hashes ${row.row_hash ?? '(none)'}, the anchor of ${anchor.exportedAt} says ${anchor.hash}: the chain was rewritten`,
    };
  else if (v.rows < anchor.rows)
    check = {
      ...base,
      ok: false,
      kind: 'truncated',
      detail: `the chain has ${v.rows} rows, fewer than the ${anchor.rows} anchored`,
    };
  else check = { ...base, ok: true, kind: null, detail: null };
  return { ...v, ok: v.ok && check.ok, anchor: check };
}
