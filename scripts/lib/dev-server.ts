import type { ChildProcess } from 'node:child_process';
import { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { mkdirSync, openSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import {
  devServerArgs,
  loadTemporalDevConfig,
  type TemporalDevConfig,
} from '../../config/temporal-dev';
import { BinaryNotFoundError, findBinary, PROJECT_ROOT, TEMPORAL_CLI } from './temporal-binaries';
import { guardedSpawn } from '../../config/guarded-spawn';

export function portOpen(host: string, port: number): Promise<boolean> {
  return new Promise((res) => {
    const s = createConnection({ host, port });
    s.once('connect', () => {
      s.destroy();
      res(true);
    });
    s.once('error', () => res(false));
  });
}

export async function waitForPort(
  host: string,
  port: number,
  timeoutMs: number,
  child?: ChildProcess,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await portOpen(host, port)) return;
    if (child && child.exitCode !== null)
      throw new Error(`process exited with code ${child.exitCode} before ${host}:${port} opened`);
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${host}:${port} did not open within ${timeoutMs} ms`);
}

export interface RunningDevServer {
  address: string;
  namespace: string;
  uiUrl: string;
  /** false when a server was already listening and we reused it. */
  startedHere: boolean;
  stop(): Promise<void>;
}

/** Starts `temporal server start-dev` from temporal-dev.yaml (or reuses one on that port). */
export async function startDevServer(
  overrides: Partial<TemporalDevConfig> = {},
  logFile?: string,
): Promise<RunningDevServer> {
  const cfg = { ...loadTemporalDevConfig(join(PROJECT_ROOT, 'temporal-dev.yaml')), ...overrides };
  const address = `${cfg.ip}:${cfg.port}`;
  const uiUrl = `http://${cfg.ip}:${cfg.uiPort}/namespaces/${cfg.namespace}/workflows`;
  if (await portOpen(cfg.ip, cfg.port)) {
    // A server started from an older temporal-dev.yaml lacks newer attributes: add them.
    await ensureSearchAttributes(address, cfg);
    return {
      address,
      namespace: cfg.namespace,
      uiUrl,
      startedHere: false,
      stop: async () => undefined,
    };
  }
  let bin: string;
  try {
    bin = findBinary(TEMPORAL_CLI, { install: true });
  } catch (err) {
    if (!(err instanceof BinaryNotFoundError)) throw err;
    return startWithSdkDownload(cfg, address, uiUrl, err);
  }
  if (cfg.dbFilename)
    mkdirSync(dirname(resolve(PROJECT_ROOT, cfg.dbFilename)), { recursive: true });
  const out = logFile ? openSync(logFile, 'a') : 'ignore';
  // Through a guardian: if this process dies, even by SIGKILL, the dev server stops too.
  const child = guardedSpawn(bin, devServerArgs(cfg, PROJECT_ROOT), {
    stdio: ['ignore', out, out],
  });
  await waitForPort(cfg.ip, cfg.port, 60_000, child);
  // The frontend accepts connections slightly before the namespace is registered.
  await new Promise((r) => setTimeout(r, 1500));
  return {
    address,
    namespace: cfg.namespace,
    uiUrl,
    startedHere: true,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise<void>((r) => {
        const t = setTimeout(() => {
          child.kill('SIGKILL');
          r();
        }, 10_000);
        child.once('exit', () => {
          clearTimeout(t);
          r();
        });
      });
    },
  };
}

/**
 * Last resort when no binary could be found or installed: the SDK downloads the CLI itself
 * (online only) and runs it with the same flags. Offline, the original error is re-thrown
 * with the download's reason, so the message still says how to get a binary.
 */
async function startWithSdkDownload(
  cfg: TemporalDevConfig,
  address: string,
  uiUrl: string,
  notFound: Error,
): Promise<RunningDevServer> {
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const all = devServerArgs(cfg, PROJECT_ROOT);
  const extraArgs = all.flatMap((arg, i) =>
    arg === '--search-attribute' || arg === '--dynamic-config-value'
      ? [arg, all[i + 1] as string]
      : [],
  );
  try {
    const env = await TestWorkflowEnvironment.createLocal({
      server: {
        namespace: cfg.namespace,
        ip: cfg.ip,
        port: cfg.port,
        ui: !cfg.headless,
        uiPort: cfg.uiPort,
        dbFilename: cfg.dbFilename ? resolve(PROJECT_ROOT, cfg.dbFilename) : undefined,
        extraArgs,
      },
    });
    return {
      address,
      namespace: cfg.namespace,
      uiUrl,
      startedHere: true,
      stop: () => env.teardown(),
    };
  } catch (downloadErr) {
    throw new BinaryNotFoundError(
      `${notFound.message}\n(The SDK's own download also failed: ${downloadErr instanceof Error ? downloadErr.message : String(downloadErr)})`,
    );
  }
}

const INDEXED_TYPES = {
  Text: 'INDEXED_VALUE_TYPE_TEXT',
  Keyword: 'INDEXED_VALUE_TYPE_KEYWORD',
  Int: 'INDEXED_VALUE_TYPE_INT',
  Double: 'INDEXED_VALUE_TYPE_DOUBLE',
  Bool: 'INDEXED_VALUE_TYPE_BOOL',
  Datetime: 'INDEXED_VALUE_TYPE_DATETIME',
  KeywordList: 'INDEXED_VALUE_TYPE_KEYWORD_LIST',
} as const;

/** Registers the search attributes of temporal-dev.yaml that the namespace does not have yet. */
export async function ensureSearchAttributes(
  address: string,
  cfg: TemporalDevConfig,
): Promise<string[]> {
  const connection = await Connection.connect({ address });
  try {
    const existing = await connection.operatorService.listSearchAttributes({
      namespace: cfg.namespace,
    });
    const known = new Set(Object.keys(existing.customAttributes ?? {}));
    const missing = Object.entries(cfg.searchAttributes).filter(([name]) => !known.has(name));
    if (missing.length > 0) {
      await connection.operatorService.addSearchAttributes({
        namespace: cfg.namespace,
        searchAttributes: Object.fromEntries(
          missing.map(([name, type]) => [
            name,
            temporal.api.enums.v1.IndexedValueType[INDEXED_TYPES[type]],
          ]),
        ),
      });
    }
    return missing.map(([name]) => name);
  } finally {
    await connection.close();
  }
}
