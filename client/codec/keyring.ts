import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/connection';
import {
  currentDataKey,
  dataKeyById,
  insertDataKey,
  type StoredDataKey,
} from '../../db/repositories/codec-keys';
import { KEY_BYTES, open, seal } from './envelope';
import type { MasterKeys } from './master-keys';

/** Where wrapped data keys live: the database in every process, a Map in pure tests. */
export interface DataKeyStore {
  byId(id: string): Promise<StoredDataKey | null>;
  current(scope: string): Promise<StoredDataKey | null>;
  insert(key: StoredDataKey): Promise<boolean>;
}

/** The database as the store, opened on first use (a replay of clear histories opens none). */
export function databaseKeyStore(db: () => Promise<Db>): DataKeyStore {
  return {
    byId: async (id) => dataKeyById(await db(), id),
    current: async (scope) => currentDataKey(await db(), scope),
    insert: async (key) => insertDataKey(await db(), key),
  };
}

export interface DataKey {
  id: string;
  scope: string;
  generation: number;
  key: Buffer;
}

export class UnknownDataKeyError extends Error {
  override readonly name = 'UnknownDataKeyError';
}

/** How long a process keeps encrypting with a scope's generation before looking for a newer one. */
const CURRENT_TTL_MS = 60_000;
/** After the store failed to answer, how long the held key is used before asking again. */
const STORE_RETRY_MS = 5_000;

/**
 * Per-scope data keys, unwrapped once per process and kept in memory. New payloads use the
 * scope's newest generation (created on first use); any generation still decrypts, so a
 * rotation re-encrypts nothing.
 */
export class DataKeyring {
  private readonly byIdCache = new Map<string, Promise<DataKey>>();
  private readonly currentCache = new Map<string, { key: Promise<DataKey>; at: number }>();

  constructor(
    private readonly master: MasterKeys,
    private readonly store: DataKeyStore,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The key new payloads of this scope are encrypted with. Past the minute the store is asked
   * again for a newer generation; when the store cannot answer (PostgreSQL down), the key this
   * process already holds keeps encrypting — it is still valid, every process can decrypt it,
   * and an outage must not turn into failed activities and failed runs. The store is asked
   * again five seconds later.
   */
  current(scope: string): Promise<DataKey> {
    const cached = this.currentCache.get(scope);
    if (cached && this.now() - cached.at < CURRENT_TTL_MS) return cached.key;
    const loaded = this.loadCurrent(scope);
    const key = cached
      ? loaded.catch(async (err: unknown) => {
          if (err instanceof UnknownDataKeyError) throw err;
          const held = await cached.key;
          const askAgainAt = this.now() - CURRENT_TTL_MS + STORE_RETRY_MS;
          this.currentCache.set(scope, { key: Promise.resolve(held), at: askAgainAt });
          return held;
        })
      : loaded;
    this.currentCache.set(scope, { key, at: this.now() });
    key.catch(() => this.currentCache.delete(scope));
    return key;
  }

  /** The key a payload names, whichever generation or master key it was made under. */
  byId(id: string): Promise<DataKey> {
    let key = this.byIdCache.get(id);
    if (!key) {
      key = this.store.byId(id).then((row) => {
        if (!row) throw new UnknownDataKeyError(`no codec data key ${id} in this installation`);
        return this.unwrap(row);
      });
      this.byIdCache.set(id, key);
      key.catch(() => this.byIdCache.delete(id));
    }
    return key;
  }

  /**
   * A new generation for the scope (`npm run cli -- codec rotate`): new payloads use it from
   * now on in this process, and in others within a minute; older payloads keep their key.
   */
  async rotate(scope: string): Promise<DataKey> {
    for (;;) {
      const latest = await this.store.current(scope);
      const created = await this.create(scope, (latest?.generation ?? 0) + 1);
      if (created) {
        const key = Promise.resolve(created);
        this.currentCache.set(scope, { key, at: this.now() });
        return created;
      }
    }
  }

  private async loadCurrent(scope: string): Promise<DataKey> {
    for (;;) {
      const row = await this.store.current(scope);
      if (row) return this.byId(row.id);
      // First payload of this scope: generation 1, unless another process just made it.
      const created = await this.create(scope, 1);
      if (created) return created;
    }
  }

  private async create(scope: string, generation: number): Promise<DataKey | null> {
    const key = randomBytes(KEY_BYTES);
    const id = `dk_${randomBytes(12).toString('hex')}`;
    const { active } = this.master;
    const inserted = await this.store.insert({
      id,
      scope,
      generation,
      masterKeyId: active.id,
      wrapped: seal(active.key, key, wrapAad(id, scope)).toString('base64'),
    });
    if (!inserted) return null;
    const made = { id, scope, generation, key };
    this.byIdCache.set(id, Promise.resolve(made));
    return made;
  }

  private unwrap(row: StoredDataKey): DataKey {
    const master = this.master.byId.get(row.masterKeyId);
    if (!master)
      throw new UnknownDataKeyError(
        `codec data key ${row.id} is wrapped by master key ${row.masterKeyId}, which is not configured (CODEC_MASTER_KEYS / CODEC_MASTER_KEY_FILE)`,
      );
    const key = open(master.key, Buffer.from(row.wrapped, 'base64'), wrapAad(row.id, row.scope));
    return { id: row.id, scope: row.scope, generation: row.generation, key };
  }
}

/** A wrapped key opens only under its own id and scope: a row moved to another org fails. */
function wrapAad(id: string, scope: string): string {
  return `codec-data-key|${id}|${scope}`;
}
