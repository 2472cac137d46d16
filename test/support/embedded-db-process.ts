import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
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
  stop(): Promise<void>;
}

/**
 * Starts `scripts/embedded-db.ts` (the embedded PostgreSQL) in its own process on a free port
 * and a fresh data folder, as `npm run embedded-db` does, so a test sees the newcomer's path:
 * first initialisation included.
 */
export async function startEmbeddedDbProcess(): Promise<EmbeddedDbProcess> {
  const root = mkdtempSync(join(tmpdir(), 'cs-embedded-'));
  chmodSync(root, 0o755); // reachable by the postgres OS user when the tests run as root
  const env = {
    EMBEDDED_DB_DIR: join(root, 'postgres'),
    EMBEDDED_DB_PORT: String(await freePort()),
  };
  const child = spawn(
    process.execPath,
    [
      require.resolve('tsx/cli'),
      join(__dirname, '..', '..', 'scripts', 'embedded-db.ts'),
      '--fast',
    ],
    { env: { ...process.env, ...env, DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (b: Buffer) => {
      const m = /ready (\S+)/.exec(b.toString());
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`embedded db exited ${code}`)));
  });
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  return {
    env,
    url,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(root, { recursive: true, force: true });
    },
  };
}
