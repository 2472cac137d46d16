import { z } from 'zod';
import {
  DEFAULT_TASK_QUEUE,
  DOMAINS,
  RESERVED_QUEUE_SUFFIXES,
  isDomain,
  type Domain,
} from '../workflows/task-queue';

/**
 * The one place that reads process.env. Every process (worker, CLI, scripts, tests) calls
 * loadConfig() at start; a bad value fails fast with the variable's name and what to set.
 */
const boolish = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

/**
 * WORKER_DOMAINS: the domains this worker process serves, comma-separated (`gateway,events`);
 * unset or empty: every domain. Unknown names are refused with the list of known ones.
 */
const workerDomains = z
  .string()
  .optional()
  .transform((v, ctx): Domain[] => {
    const names = (v ?? '')
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n !== '');
    if (names.length === 0) return [...DOMAINS];
    const unknown = names.filter((n) => !isDomain(n));
    if (unknown.length > 0) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `unknown domain${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')}; known: ${DOMAINS.join(', ')}`,
      });
      return z.NEVER;
    }
    // In the order of DOMAINS, each once.
    return DOMAINS.filter((d) => names.includes(d));
  });

/**
 * The payload codec's master keys (client/codec): `<id>:<base64 of 32 bytes>`, separated by
 * commas or newlines, the first one wrapping new data keys and every one still unwrapping the
 * data keys it wrapped (a rotation puts a new key first and keeps the old ones). Ids name the
 * key in the database rows, so they must be unique.
 */
export const MasterKeyListSchema = z
  .string()
  .transform((text, ctx): { id: string; key: Buffer }[] => {
    const entries = text
      .split(/[,\n]/)
      .map((e) => e.trim())
      .filter((e) => e !== '' && !e.startsWith('#'));
    const keys: { id: string; key: Buffer }[] = [];
    for (const [i, entry] of entries.entries()) {
      const m = /^([A-Za-z0-9_-]{1,32}):([A-Za-z0-9+/]{43}=)$/.exec(entry);
      const key = m ? Buffer.from(m[2] as string, 'base64') : undefined;
      if (!m || key?.length !== 32) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: `entry ${i + 1} is not <id>:<base64 of 32 random bytes> (make one with: node -e "console.log('mk2:'+require('crypto').randomBytes(32).toString('base64'))")`,
        });
        return z.NEVER;
      }
      if (keys.some((k) => k.id === m[1])) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: `master key id ${m[1]} twice` });
        return z.NEVER;
      }
      keys.push({ id: m[1] as string, key });
    }
    if (keys.length === 0) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'no master key' });
      return z.NEVER;
    }
    return keys;
  });

const EnvSchema = z.object({
  TEMPORAL_ADDRESS: z
    .string()
    .regex(/^[^\s:]+:\d+$/, 'host:port, e.g. 127.0.0.1:7233')
    .default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('countersign'),
  /** The base task queue: each domain runs on `<base>-<domain>`, the slots on `<base>-slots`. */
  TEMPORAL_TASK_QUEUE: z
    .string()
    .min(1)
    .refine((q) => !RESERVED_QUEUE_SUFFIXES.some((s) => q.endsWith(`-${s}`)), {
      message: `a base queue name, not ending in -${RESERVED_QUEUE_SUFFIXES.join(', -')} (the domains' queues derive from it)`,
    })
    .default(DEFAULT_TASK_QUEUE),
  WORKER_DOMAINS: workerDomains,
  /**
   * Also serve the bare base queue with every workflow and activity, as the single worker did
   * before the split into domains, so runs started then finish. Needs all five domains.
   */
  WORKER_DRAIN_BASE_QUEUE: boolish,
  TEMPORAL_TLS: boolish,
  TEMPORAL_TLS_CERT_PATH: z.string().optional(),
  TEMPORAL_TLS_KEY_PATH: z.string().optional(),
  TEMPORAL_TLS_SERVER_NAME: z.string().optional(),
  TEMPORAL_API_KEY: z.string().optional(),
  DATABASE_URL: z
    .string()
    .regex(
      /^postgres(ql)?:\/\//,
      'a postgres:// URL, e.g. postgres://user:pass@localhost:5432/countersign',
    )
    .optional(),
  /**
   * The platform's own connection (workers, API, CLI): the countersign_runtime role, which has
   * no DDL and changes the books only through the gateway's database functions. Unset: the
   * owner URL (DATABASE_URL or the embedded one) with user countersign_runtime and
   * DATABASE_RUNTIME_PASSWORD. DATABASE_URL itself is the owner: it runs the migrations.
   */
  DATABASE_RUNTIME_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'a postgres:// URL for the countersign_runtime role')
    .optional(),
  /**
   * Set by the migrate step on countersign_runtime. Unset: derived from the owner's password
   * (db/connection.ts runtimePasswordFor), so every cluster — every embedded data folder, whose
   * superuser password is random — has its own, and only holders of the owner URL know it.
   */
  DATABASE_RUNTIME_PASSWORD: z.string().min(8).optional(),
  /**
   * The gateway worker's own connection: the countersign_gateway role (migration 0034), the only
   * one that may register submissions, record votes and apply. Give it to the process serving
   * the gateway domain alone. Unset: the owner URL with user countersign_gateway and
   * DATABASE_GATEWAY_PASSWORD (derived like the runtime's when unset).
   */
  DATABASE_GATEWAY_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'a postgres:// URL for the countersign_gateway role')
    .optional(),
  DATABASE_GATEWAY_PASSWORD: z.string().min(8).optional(),
  EMBEDDED_DB_DIR: z.string().default('.data/postgres'),
  EMBEDDED_DB_PORT: z.coerce.number().int().min(1).max(65535).default(55432),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).optional(),
  /** The agents folder the worker loads (default: the repository's agents/). */
  AGENTS_DIR: z.string().min(1).optional(),
  /** Workflows a worker keeps in memory (sticky cache); unset: sized from the heap limit. */
  WORKER_MAX_CACHED_WORKFLOWS: z.coerce.number().int().min(2).max(100_000).optional(),
  ANTHROPIC_API_KEY: z.string().min(1).optional(),
  ANTHROPIC_BASE_URL: z.string().url().optional(),
  API_PORT: z.coerce.number().int().min(0).max(65535).default(8780),
  LOG_LEVEL: z.enum(['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR']).default('INFO'),
  /** json: one object per line with the run's ids (config/logging.ts); pretty: for a terminal. */
  LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
  /** OpenTelemetry tracing through the SDK's interceptors: off unless an exporter is named. */
  OTEL_TRACES_EXPORTER: z.enum(['none', 'console', 'otlp']).default('none'),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().default('http://127.0.0.1:4318/v1/traces'),
  OTEL_SERVICE_NAME: z.string().min(1).default('countersign-worker'),
  // Decision proofs (approvals, reviews) are HMAC-signed with this secret; without it, one is
  // generated once into DECISION_SECRET_FILE, shared by the worker, the API and the CLI.
  DECISION_SIGNING_SECRET: z.string().min(32, 'at least 32 characters').optional(),
  DECISION_SECRET_FILE: z.string().default('.data/decision-secret'),
  // Audit anchors: chain heads signed with this key (HMAC-SHA256; never in the database, so
  // the runtime role cannot forge one), else with a random key generated once into
  // AUDIT_ANCHOR_SECRET_FILE. The worker appends every org's signed head to AUDIT_ANCHORS_FILE
  // every AUDIT_ANCHOR_EVERY_MINUTES (0: never); `audit verify` checks the chains against them.
  AUDIT_ANCHOR_SECRET: z.string().min(32, 'at least 32 characters').optional(),
  AUDIT_ANCHOR_SECRET_FILE: z.string().default('.data/audit-anchor-secret'),
  AUDIT_ANCHORS_FILE: z.string().default('.data/audit-anchors.jsonl'),
  AUDIT_ANCHOR_EVERY_MINUTES: z.coerce.number().int().min(0).max(10_080).default(15),
  // Workflow history is encrypted by the payload codec (client/codec) under per-org data keys
  // that these master keys wrap; unset, one is generated once into CODEC_MASTER_KEY_FILE.
  // `off` writes clear payloads (benchmarks only: such a process cannot read encrypted runs).
  TEMPORAL_PAYLOAD_CODEC: z.enum(['aes-256-gcm', 'off']).default('aes-256-gcm'),
  CODEC_MASTER_KEYS: MasterKeyListSchema.optional(),
  CODEC_MASTER_KEY_FILE: z.string().default('.data/codec-master-keys'),
  // Browser origins (the Temporal Web UI) allowed to call the API's /codec endpoint.
  CODEC_CORS_ORIGINS: z
    .string()
    .default('http://127.0.0.1:8233,http://localhost:8233')
    .transform((v) =>
      v
        .split(',')
        .map((o) => o.trim())
        .filter((o) => o !== ''),
    )
    .pipe(z.array(z.string().url()).max(20)),
  // The CLI acts as the holder of this API key (never a command-line argument).
  CS_API_KEY: z.string().optional(),
  CS_API_KEY_FILE: z.string().optional(),
  // The org whose owners and admins operate the deployment: operator commands without --org
  // (queues, runs, every org's audit or failed events) need a key of an owner or admin of it.
  CS_OPERATOR_ORG: z.string().min(1).optional(),
  // The API runs behind a TLS-terminating proxy: its X-Forwarded-Proto decides whether the
  // session cookie is Secure. Off by default, since a client can send the header itself.
  TRUST_PROXY: z.enum(['0', '1']).default('0'),
  // Idempotent database activities retry through an outage this long, then wait for an
  // operator's resume; the interval between attempts never exceeds the maximum.
  DB_RETRY_BUDGET_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(86_400_000)
    .default(25 * 60_000),
  DB_RETRY_MAX_INTERVAL_MS: z.coerce.number().int().min(100).max(300_000).default(30_000),
  // A gateway submission waiting for approval continues as a new run (state carried) once its
  // history holds this many events, far below Temporal's limit whatever votes arrive.
  GATEWAY_HISTORY_EVENTS_PER_RUN: z.coerce.number().int().min(100).max(40_000).default(2000),
  // A worker started while PostgreSQL or Temporal is unreachable (a restart, an outage) waits
  // this long for them at start-up, then exits with the error.
  // Set by the process that spawns the worker with an IPC channel (scripts/lib/worker-process):
  // the worker exits when that parent is gone, even if it died before the worker could listen.
  CS_WATCH_PARENT: z.enum(['0', '1']).default('0'),
  WORKER_STARTUP_WAIT_MS: z.coerce.number().int().min(0).max(3_600_000).default(300_000),
  // Human requests' notifier: assignments and reminders by email (an SMTP URL such as
  // smtp://user:pass@mail.example.org:587) and/or a webhook signed with HMAC-SHA256.
  NOTIFY_SMTP_URL: z.string().url().optional(),
  NOTIFY_FROM: z.string().min(3).default('countersign@localhost'),
  // The delegation watch (lost callbacks re-escalated, forgotten delegations closed): a
  // Temporal Schedule every N minutes, created at worker start; 0 turns it off (the tests).
  DELEGATION_WATCH_MINUTES: z.coerce.number().int().min(0).max(1440).default(10),
  // The callback breaker: completed callback-triggered runs per org per 30 minutes before a
  // request's callback event is failed instead of dispatched (SPEC B: 50).
  CALLBACK_RUN_LIMIT: z.coerce.number().int().min(1).max(10_000).default(50),
  NOTIFY_WEBHOOK_URL: z.string().url().optional(),
  NOTIFY_WEBHOOK_SECRET: z.string().min(32, 'at least 32 characters').optional(),
  // Uploaded documents: text extraction runs on a worker thread bounded by these; past either
  // limit the document is refused (ExtractionLimitExceeded) and nothing of it is stored.
  DOCUMENT_EXTRACT_TIME_LIMIT_MS: z.coerce.number().int().min(100).max(3_600_000).default(180_000),
  DOCUMENT_EXTRACT_MEMORY_MB: z.coerce.number().int().min(64).max(16_384).default(2048),
  // Inline XBRL facts read from one HTML filing (real 10-Ks carry a few thousand); a filing with
  // more is ingested as text only, the reason recorded on its fact set.
  DOCUMENT_MAX_FACTS: z.coerce.number().int().min(1).max(1_000_000).default(50_000),
  // Answer numeric questions from the filing's text alone, never from its inline XBRL facts
  // (the eval's --no-ixbrl measures that path on the same filings).
  ANALYSIS_IGNORE_INLINE_XBRL: boolish,
});

export type AppConfig = z.infer<typeof EnvSchema> & { embeddedDatabase: boolean };

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function parseConfig(env: Record<string, string | undefined>): AppConfig {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map(
      (i) =>
        `  ${i.path.join('.')}: ${i.message} (got ${JSON.stringify(cleaned[String(i.path[0])])})`,
    );
    throw new ConfigError(
      `Invalid environment; set these variables correctly:\n${lines.join('\n')}`,
    );
  }
  const cfg = result.data;
  if (cfg.WORKER_DRAIN_BASE_QUEUE && cfg.WORKER_DOMAINS.length !== DOMAINS.length) {
    throw new ConfigError(
      'WORKER_DRAIN_BASE_QUEUE is set: runs on the bare base queue may call any domain, so the process must serve all of them (unset WORKER_DOMAINS).',
    );
  }
  if (cfg.TEMPORAL_TLS_CERT_PATH && !cfg.TEMPORAL_TLS_KEY_PATH) {
    throw new ConfigError(
      'TEMPORAL_TLS_CERT_PATH is set: also set TEMPORAL_TLS_KEY_PATH (mTLS needs both).',
    );
  }
  return { ...cfg, embeddedDatabase: cfg.DATABASE_URL === undefined };
}

let cached: AppConfig | undefined;

/** Parse process.env once per process. */
export function loadConfig(): AppConfig {
  cached ??= parseConfig(process.env);
  return cached;
}
