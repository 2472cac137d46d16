import type { LogLevel } from '@temporalio/worker';
import { createLogger } from '../config/logging';
import { loadConfig } from '../config/env';
import { openDatabase } from '../db/connection';
import { connectClient } from '../client/temporal-connection';
import { createApiServer } from './server';

/** `npm run api`: the HTTP surface alone, against TEMPORAL_ADDRESS and the database. */
async function main(): Promise<void> {
  const cfg = loadConfig();
  const database = await openDatabase(cfg);
  const client = await connectClient(cfg, database.db);
  const server = createApiServer({
    db: database.db,
    client,
    taskQueue: cfg.TEMPORAL_TASK_QUEUE,
    logger: createLogger(cfg.LOG_LEVEL as LogLevel, cfg.LOG_FORMAT, 'api'),
    trustProxy: cfg.TRUST_PROXY === '1',
  });
  server.listen(cfg.API_PORT, '127.0.0.1', () =>
    console.log(`API listening on http://127.0.0.1:${cfg.API_PORT}`),
  );
  const stop = () =>
    server.close(() => {
      void client.connection
        .close()
        .then(() => database.close())
        .then(() => process.exit(0));
    });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
