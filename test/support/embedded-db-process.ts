import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function freePort(): Promise<number> {
  return new Promise((res) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

export interface EmbeddedDbProcess {
  /** The variables that point config/env.ts at this server (embedded mode, no DATABASE_URL). */
  env: { EMBEDDED_DB_DIR: string; EMBEDDED_DB_PORT: string };
  url: string;
  stop(): void;
}

/**
 * Starts `scripts/embedded-db.ts` (PGlite over the wire protocol) in its own process on a
 * free port and a fresh data folder, as `npm start` does; jest's VM cannot load PGlite's
 * WASM module in-process.
 */
export async function startEmbeddedDbProcess(): Promise<EmbeddedDbProcess> {
  const env = {
    EMBEDDED_DB_DIR: mkdtempSync(join(tmpdir(), 'cs-pglite-')),
    EMBEDDED_DB_PORT: String(await freePort()),
  };
  const child = spawn(
    process.execPath,
    [require.resolve('tsx/cli'), join(__dirname, '..', '..', 'scripts', 'embedded-db.ts')],
    { env: { ...process.env, ...env, DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (b: Buffer) => b.toString().includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`embedded db exited ${code}`)));
  });
  return {
    env,
    url: `postgres://postgres@127.0.0.1:${env.EMBEDDED_DB_PORT}/postgres`,
    stop: () => void child.kill('SIGTERM'),
  };
}
