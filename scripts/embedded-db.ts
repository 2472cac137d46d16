import { loadConfig } from '../config/env';
import { startEmbeddedServer } from '../db/embedded-server';

/**
 * Serves the embedded database (PGlite over the Postgres wire protocol) as its own process,
 * so several processes share it: `npm run embedded-db`. Prints "ready <url>" when listening.
 */
async function main(): Promise<void> {
  const cfg = loadConfig();
  const server = await startEmbeddedServer({
    dataDir: cfg.EMBEDDED_DB_DIR,
    port: cfg.EMBEDDED_DB_PORT,
  });
  console.log(`ready ${server.url}`);
  const stop = () => void server.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
