import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { ConfigError, parseConfig } from '../config/env';
import {
  ENCRYPTED_ENCODING,
  EncryptionCodec,
  KEY_ID_METADATA,
  PayloadDecryptError,
} from '../client/codec/codec';
import { DataKeyring, UnknownDataKeyError, type DataKeyStore } from '../client/codec/keyring';
import { loadMasterKeys, masterKeysOf, type MasterKey } from '../client/codec/master-keys';
import { orgOfWorkflowId, scopeOfContext } from '../client/codec/scope';
import type { StoredDataKey } from '../db/repositories/codec-keys';

/**
 * The payload codec on its own: AES-256-GCM round trip, tamper detection, key rotation (data
 * and master keys), clear payloads passing through, and which org's key a workflow id picks.
 * The store is a Map with the database's semantics (unique scope and generation).
 */
function memoryStore(): DataKeyStore & { rows: StoredDataKey[] } {
  const rows: StoredDataKey[] = [];
  return {
    rows,
    byId: (id) => Promise.resolve(rows.find((r) => r.id === id) ?? null),
    current: (scope) =>
      Promise.resolve(
        rows.filter((r) => r.scope === scope).sort((a, b) => b.generation - a.generation)[0] ??
          null,
      ),
    insert: (key) => {
      if (rows.some((r) => r.scope === key.scope && r.generation === key.generation))
        return Promise.resolve(false);
      rows.push({ ...key });
      return Promise.resolve(true);
    },
  };
}

const master = (id: string): MasterKey => ({ id, key: randomBytes(32) });
const gateway = (org: string) => ({
  type: 'workflow' as const,
  namespace: 'countersign',
  workflowId: `gateway:${org}:w-1`,
});
const toPayload = (v: unknown) => defaultPayloadConverter.toPayload(v);
const fromPayload = (p: Payload) => defaultPayloadConverter.fromPayload(p);
const text = (p: Payload) => Buffer.from(p.data ?? new Uint8Array()).toString('latin1');
const meta = (p: Payload, k: string) => Buffer.from(p.metadata?.[k] ?? new Uint8Array()).toString();

const WRITE = {
  orgId: 'acme',
  payload: {
    name: 'Lieferant GmbH',
    email: 'billing@lieferant.example',
    bankAccount: { iban: 'DE89370400440532013000' },
    amountMinor: '987654',
  },
};

describe('payload codec', () => {
  it('round-trips a payload, and what it stores holds none of the clear text', async () => {
    const codec = new EncryptionCodec(
      new DataKeyring(masterKeysOf([master('mk1')]), memoryStore()),
    );
    const [enc] = await codec.encode([toPayload(WRITE)], gateway('acme'));
    expect(meta(enc as Payload, 'encoding')).toBe(ENCRYPTED_ENCODING);
    expect(meta(enc as Payload, KEY_ID_METADATA)).toMatch(/^dk_[0-9a-f]{24}$/);
    for (const secret of ['DE89370400440532013000', 'billing@lieferant', '987654', 'json/plain'])
      expect(text(enc as Payload)).not.toContain(secret);
    const [dec] = await codec.decode([enc as Payload]);
    expect(fromPayload(dec as Payload)).toEqual(WRITE);
    expect(meta(dec as Payload, 'encoding')).toBe('json/plain');
  });

  it('refuses a payload whose ciphertext was modified, even by one bit', async () => {
    const codec = new EncryptionCodec(
      new DataKeyring(masterKeysOf([master('mk1')]), memoryStore()),
    );
    const [enc] = (await codec.encode([toPayload(WRITE)], gateway('acme'))) as [Payload];
    const data = Buffer.from(enc.data as Uint8Array);
    data[data.length - 5] = (data[data.length - 5] as number) ^ 0x01;
    await expect(codec.decode([{ ...enc, data }])).rejects.toThrow(PayloadDecryptError);
  });

  it('refuses a payload relabelled with another key id of the same installation', async () => {
    const codec = new EncryptionCodec(
      new DataKeyring(masterKeysOf([master('mk1')]), memoryStore()),
    );
    const [a] = (await codec.encode([toPayload(WRITE)], gateway('acme'))) as [Payload];
    const [b] = (await codec.encode([toPayload(1)], gateway('globex'))) as [Payload];
    const relabelled = {
      ...a,
      metadata: { ...a.metadata, [KEY_ID_METADATA]: b.metadata?.[KEY_ID_METADATA] as Uint8Array },
    };
    await expect(codec.decode([relabelled])).rejects.toThrow(/does not decrypt/);
  });

  it('passes clear payloads (histories from before the codec) through decode unchanged', async () => {
    const codec = new EncryptionCodec(
      new DataKeyring(masterKeysOf([master('mk1')]), memoryStore()),
    );
    const clear = [toPayload(WRITE), toPayload(null), toPayload(new Uint8Array([1, 2]))];
    expect(await codec.decode(clear)).toEqual(clear);
  });

  it('keeps decrypting old payloads after the org key is rotated, and encrypts new ones under the new key', async () => {
    const store = memoryStore();
    const mk = masterKeysOf([master('mk1')]);
    const keyring = new DataKeyring(mk, store);
    const codec = new EncryptionCodec(keyring);
    const [old] = (await codec.encode([toPayload('before')], gateway('acme'))) as [Payload];
    const rotated = await keyring.rotate('org:acme');
    expect(rotated.generation).toBe(2);
    const [now] = (await codec.encode([toPayload('after')], gateway('acme'))) as [Payload];
    expect(meta(now, KEY_ID_METADATA)).toBe(rotated.id);
    expect(meta(old, KEY_ID_METADATA)).not.toBe(rotated.id);
    // A fresh process (empty caches) reads both from the store.
    const fresh = new EncryptionCodec(new DataKeyring(mk, store));
    expect((await fresh.decode([old, now])).map(fromPayload)).toEqual(['before', 'after']);
  });

  it('keeps encrypting with the key it holds while the store is down, and picks up a rotation once it answers', async () => {
    const store = memoryStore();
    const mk = masterKeysOf([master('mk1')]);
    let clock = 0;
    const keyring = new DataKeyring(mk, store, () => clock);
    const codec = new EncryptionCodec(keyring);
    const [first] = (await codec.encode([toPayload('before')], gateway('acme'))) as [Payload];
    const held = meta(first, KEY_ID_METADATA);
    // PostgreSQL goes down; the minute in which the key is trusted without asking passes.
    const down = new Error('connect ECONNREFUSED 127.0.0.1:5432');
    const lookups = { n: 0 };
    const current = store.current;
    store.current = () => {
      lookups.n++;
      return Promise.reject(down);
    };
    clock = 61_000;
    const [during] = (await codec.encode([toPayload('during')], gateway('acme'))) as [Payload];
    expect(meta(during, KEY_ID_METADATA)).toBe(held);
    // Within the next five seconds the store is not asked again for every payload.
    clock = 63_000;
    await codec.encode([toPayload('again')], gateway('acme'));
    expect(lookups.n).toBe(1);
    // A scope this process never held has no key to fall back on: the failure is the store's.
    await expect(keyring.current('org:other')).rejects.toThrow('ECONNREFUSED');
    // The store answers again with a newer generation (rotated elsewhere): it is used.
    store.current = current;
    const rotated = await new DataKeyring(mk, store).rotate('org:acme');
    clock = 67_000;
    const [after] = (await codec.encode([toPayload('after')], gateway('acme'))) as [Payload];
    expect(meta(after, KEY_ID_METADATA)).toBe(rotated.id);
    expect((await codec.decode([first, during, after])).map(fromPayload)).toEqual([
      'before',
      'during',
      'after',
    ]);
  });

  it('keeps unwrapping data keys made under an older master key after a new one is put first', async () => {
    const store = memoryStore();
    const mk1 = master('mk1');
    const first = new EncryptionCodec(new DataKeyring(masterKeysOf([mk1]), store));
    const [old] = (await first.encode([toPayload('old')], gateway('acme'))) as [Payload];
    const mk2 = master('mk2');
    const rotated = new DataKeyring(masterKeysOf([mk2, mk1]), store);
    const created = await rotated.rotate('org:acme');
    expect(store.rows.find((r) => r.id === created.id)?.masterKeyId).toBe('mk2');
    const codec = new EncryptionCodec(rotated);
    const [fresh] = (await codec.encode([toPayload('new')], gateway('acme'))) as [Payload];
    expect((await codec.decode([old, fresh])).map(fromPayload)).toEqual(['old', 'new']);
    // Without the old master key, its data keys stay closed (named, not garbage).
    const withoutOld = new EncryptionCodec(new DataKeyring(masterKeysOf([mk2]), store));
    await expect(withoutOld.decode([old])).rejects.toThrow(UnknownDataKeyError);
    await expect(withoutOld.decode([old])).rejects.toThrow(
      /master key mk1, which is not configured/,
    );
  });

  it('refuses a wrapped key moved to another org', async () => {
    const store = memoryStore();
    const mk = masterKeysOf([master('mk1')]);
    const codec = new EncryptionCodec(new DataKeyring(mk, store));
    const [enc] = (await codec.encode([toPayload(WRITE)], gateway('acme'))) as [Payload];
    const row = store.rows[0] as StoredDataKey;
    row.scope = 'org:globex';
    await expect(new EncryptionCodec(new DataKeyring(mk, store)).decode([enc])).rejects.toThrow(
      /authentication failed/,
    );
  });

  it('encrypts each org under its own key, and everything without an org under the platform key', async () => {
    const store = memoryStore();
    const codec = new EncryptionCodec(new DataKeyring(masterKeysOf([master('mk1')]), store));
    await codec.encode([toPayload(1)], gateway('acme'));
    await codec.encode([toPayload(1)], {
      type: 'activity',
      namespace: 'n',
      workflowId: 'event:globex:bill.received:x',
      isLocal: false,
    });
    await codec.encode([toPayload(1)], {
      type: 'workflow',
      namespace: 'n',
      workflowId: 'slots:cs:org:acme',
    });
    await codec.encode([toPayload(1)]);
    expect(store.rows.map((r) => r.scope).sort()).toEqual(['org:acme', 'org:globex', 'platform']);
  });
});

describe('which key a workflow id picks', () => {
  it.each([
    ['gateway:acme:w-1', 'acme'],
    ['analysis:acme:r1', 'acme'],
    ['ingest:acme:doc', 'acme'],
    ['event:acme:bill.received:k', 'acme'],
    ['request:acme:r', 'acme'],
    ['agent-run:acme:bank_reconciler:e:1', 'acme'],
    ['slots:countersign:org:acme', null],
    ['delegation-watch:countersign', null],
    ['scheduled-event:countersign:agent:s1', null],
    ['gateway::w', null],
    ['gateway', null],
  ])('%s → %s', (id, org) => {
    expect(orgOfWorkflowId(id)).toBe(org);
  });

  it('uses the scheduling workflow for an activity and the platform without a context', () => {
    expect(
      scopeOfContext({
        type: 'activity',
        namespace: 'n',
        workflowId: 'gateway:acme:k',
        isLocal: false,
      }),
    ).toBe('org:acme');
    expect(scopeOfContext(undefined)).toBe('platform');
  });
});

describe('master key configuration', () => {
  const key = () => randomBytes(32).toString('base64');

  it('reads CODEC_MASTER_KEYS in order, the first one active', () => {
    const [a, b] = [key(), key()];
    const cfg = parseConfig({ CODEC_MASTER_KEYS: `mk2:${a},mk1:${b}` });
    const keys = loadMasterKeys(cfg);
    expect(keys.active.id).toBe('mk2');
    expect(keys.active.key.toString('base64')).toBe(a);
    expect([...keys.byId.keys()]).toEqual(['mk2', 'mk1']);
  });

  it('fails fast on a short key, a duplicate id or garbage, naming the variable', () => {
    for (const bad of [
      `mk1:${randomBytes(16).toString('base64')}`,
      `mk1:${key()},mk1:${key()}`,
      'hunter2',
    ]) {
      expect(() => parseConfig({ CODEC_MASTER_KEYS: bad })).toThrow(ConfigError);
      expect(() => parseConfig({ CODEC_MASTER_KEYS: bad })).toThrow(/CODEC_MASTER_KEYS/);
    }
  });

  it('generates one key into the file once (mode 0600) and reads the same one after', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'codec-')), 'keys');
    const cfg = parseConfig({ CODEC_MASTER_KEY_FILE: file });
    const first = loadMasterKeys(cfg);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = loadMasterKeys(cfg);
    expect(again.active.id).toBe(first.active.id);
    expect(again.active.key.equals(first.active.key)).toBe(true);
    expect(readFileSync(file, 'utf8')).toMatch(/^mk-[0-9a-f]{8}:/m);
  });

  it('refuses a damaged key file instead of generating over it', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'codec-')), 'keys');
    writeFileSync(file, 'mk1:tooshort\n');
    expect(() => loadMasterKeys(parseConfig({ CODEC_MASTER_KEY_FILE: file }))).toThrow(
      /CODEC_MASTER_KEY_FILE/,
    );
  });
});
