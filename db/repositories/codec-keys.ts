import { desc, eq } from 'drizzle-orm';
import type { Db } from '../connection';
import { codecDataKeys } from '../schema';

/** A data key as stored: wrapped by the master key it names. */
export interface StoredDataKey {
  id: string;
  scope: string;
  generation: number;
  masterKeyId: string;
  wrapped: string;
}

const columns = {
  id: codecDataKeys.id,
  scope: codecDataKeys.scope,
  generation: codecDataKeys.generation,
  masterKeyId: codecDataKeys.masterKeyId,
  wrapped: codecDataKeys.wrapped,
};

export async function dataKeyById(db: Db, id: string): Promise<StoredDataKey | null> {
  const [row] = await db.select(columns).from(codecDataKeys).where(eq(codecDataKeys.id, id));
  return row ?? null;
}

/** The scope's newest generation: the one new payloads are encrypted with. */
export async function currentDataKey(db: Db, scope: string): Promise<StoredDataKey | null> {
  const [row] = await db
    .select(columns)
    .from(codecDataKeys)
    .where(eq(codecDataKeys.scope, scope))
    .orderBy(desc(codecDataKeys.generation))
    .limit(1);
  return row ?? null;
}

/**
 * Adds a generation; false when that (scope, generation) exists already — another process
 * created it first, and the caller reads theirs.
 */
export async function insertDataKey(db: Db, key: StoredDataKey): Promise<boolean> {
  const rows = await db
    .insert(codecDataKeys)
    .values(key)
    .onConflictDoNothing({ target: [codecDataKeys.scope, codecDataKeys.generation] })
    .returning({ id: codecDataKeys.id });
  return rows.length === 1;
}
