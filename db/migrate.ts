import { resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { Db } from './connection';

export const MIGRATIONS_FOLDER = resolve(__dirname, 'migrations');

/**
 * Applies the committed migrations (never `drizzle-kit push`). An advisory lock makes it safe
 * when several workers start at once: the first applies, the others find nothing to do.
 */
export async function runMigrations(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(72657301)`);
    await migrate(tx as unknown as Db, { migrationsFolder: MIGRATIONS_FOLDER });
  });
}

if (require.main === module) {
  void (async () => {
    const { loadConfig } = await import('../config/env');
    const { openDatabase } = await import('./connection');
    const database = await openDatabase(loadConfig());
    try {
      await runMigrations(database.db);
      console.log('migrations applied');
    } finally {
      await database.close();
    }
  })().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
