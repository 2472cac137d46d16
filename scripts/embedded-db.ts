import { loadConfig } from '../config/env';
import { startEmbeddedPostgres } from '../db/embedded-postgres';

/**
 * Serves the embedded PostgreSQL of EMBEDDED_DB_DIR on EMBEDDED_DB_PORT as its own process,
 * so several processes share it: `npm run embedded-db`. Prints "ready <url>" when it accepts
 * connections and stops the server on SIGINT/SIGTERM or when its parent goes away.
 */
async function main(): Promise<void> {
  const cfg = loadConfig();
  const server = await startEmbeddedPostgres({
    dataDir: cfg.EMBEDDED_DB_DIR,
    port: cfg.EMBEDDED_DB_PORT,
    durability: process.argv.includes('--fast') ? 'fast' : 'full',
  });
  console.log(`ready ${server.url}`);
  const stop = () => void server.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Started by another process with an IPC channel: stop with it.
  process.on('disconnect', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
