import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from '@temporalio/worker';
import type { Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { createApiApp } from '../api/server';
import { ENCRYPTED_ENCODING, KEY_ID_METADATA } from '../client/codec/codec';
import { createPayloadCodec, dataConverterOf } from '../client/codec/payload-codec';
import { GatewayClient } from '../client/gateway-client';
import type { Database } from '../db/connection';
import { issueApiKey } from '../db/repositories/credentials';
import { gatewayWorkflowId, type GatewayWriteInput } from '../workflows/gateway.contract';
import { createTestDatabase } from './support/database';
import {
  startTestWorker,
  testConfig,
  WITH_CODEC,
  workflowBundle,
  type TestWorker,
} from './support/worker';
import {
  APPROVER_1,
  APPROVER_2,
  CLERK,
  ORG,
  OTHER_ORG,
  OUTSIDER,
  OWNER,
  journalPost,
  key,
  seedGatewayOrgs,
  warmAccounts,
} from './gateway.fixtures';
import { ensureUser } from '../activities/gateway/org-bootstrap';

/**
 * What Temporal stores of a gateway write is ciphertext: the history read without the codec
 * (the server's view, the Web UI's without a codec endpoint) holds no IBAN, email, amount or
 * approval note, every payload but the search attributes is encrypted, and the search
 * attributes hold no personal data. With the codec the same history decodes and replays, and
 * the API's codec endpoint decodes it for an owner of the org — and for nobody else.
 */
const IBAN = 'DE89370400440532013000';
const EMAIL = 'billing@codec-lieferant.example';
const NOTE = 'checked the bank letter codec-7731';
const AMOUNT = '98765';

let database: Database;
let worker: TestWorker;
let gw: GatewayClient;
const vendorKey = key('codec-ven');
const postKey = key('codec-jp');

type History = temporal.api.history.v1.IHistory;

async function rawHistory(workflowId: string): Promise<History> {
  // The raw service: no data converter, exactly the bytes the server keeps.
  const res = await worker.client.workflowService.getWorkflowExecutionHistory({
    namespace: testConfig(database, WITH_CODEC).TEMPORAL_NAMESPACE,
    execution: { workflowId },
  });
  return res.history ?? {};
}

/** Every payload in a history, with the path it sits at. */
function payloadsOf(value: unknown, path = '', out: { path: string; payload: Payload }[] = []) {
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return out;
  const v = value as Record<string, unknown>;
  if ('metadata' in v && v.metadata && typeof v.metadata === 'object' && 'data' in v)
    out.push({ path, payload: v as Payload });
  else for (const [k, x] of Object.entries(v)) payloadsOf(x, `${path}.${k}`, out);
  return out;
}

const bytesText = (b: Uint8Array | null | undefined) =>
  Buffer.from(b ?? new Uint8Array()).toString('latin1');
const payloadText = (p: Payload) =>
  [...Object.values(p.metadata ?? {}).map(bytesText), bytesText(p.data)].join(' ');

beforeAll(async () => {
  database = await createTestDatabase();
  await seedGatewayOrgs(database.db);
  await warmAccounts(database.db, ['6200', '1010']);
  worker = await startTestWorker(database, undefined, WITH_CODEC);
  gw = new GatewayClient(worker.client, database.db, worker.taskQueue);
  const vendor: GatewayWriteInput = {
    orgId: ORG,
    idempotencyKey: vendorKey,
    submitter: { kind: 'user', userId: CLERK },
    kind: 'vendor.create',
    payload: {
      vendorId: 'ven-codec',
      name: 'Codec Lieferant GmbH',
      email: EMAIL,
      bankAccount: { holderName: 'Codec Lieferant GmbH', iban: IBAN, currency: 'USD' },
    },
  };
  await gw.submit(vendor);
  await gw.settle(ORG, vendorKey);
  for (const approver of [APPROVER_1, APPROVER_2]) await gw.approve(ORG, vendorKey, approver, NOTE);
  expect((await gw.result(ORG, vendorKey)).outcome).toBe('applied');
  await gw.submit(journalPost({ key: postKey, amount: AMOUNT }));
  expect((await gw.result(ORG, postKey)).outcome).toBe('applied');
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await database?.close();
});

describe('workflow history at rest', () => {
  it('holds no IBAN, email, approval note or amount in clear, and every payload is encrypted', async () => {
    for (const id of [gatewayWorkflowId(ORG, vendorKey), gatewayWorkflowId(ORG, postKey)]) {
      const history = await rawHistory(id);
      const stored = payloadsOf(history);
      expect(stored.length).toBeGreaterThan(5);
      const clear = stored.filter(
        (s) => bytesText(s.payload.metadata?.encoding) !== ENCRYPTED_ENCODING,
      );
      // Only the search attributes stay clear (the server indexes them), and the patch markers
      // Temporal's core writes itself (a patch id and a flag; no codec sees them).
      expect(
        clear.map((s) => s.path).filter((p) => !/searchAttributes|\.patch-data\./.test(p)),
      ).toEqual([]);
      for (const m of clear.filter((s) => s.path.includes('.patch-data.')))
        expect(Object.keys(JSON.parse(bytesText(m.payload.data)) as object).sort()).toEqual([
          'deprecated',
          'id',
        ]);
      const text = stored.map((s) => payloadText(s.payload)).join('\n');
      for (const secret of [IBAN, EMAIL, NOTE, `"${AMOUNT}"`, 'codec-lieferant', 'Codec Lieferant'])
        expect(text).not.toContain(secret);
      // The search attributes the write upserted: org, kind, state, lane, outcome — no person.
      const attributes = new Set(
        clear.filter((s) => /searchAttributes/.test(s.path)).map((s) => s.path.split('.').pop()),
      );
      expect(attributes.has('CsOrg')).toBe(true);
      // (TemporalChangeVersion: the patch ids the workflow took, set by the SDK.)
      for (const a of attributes)
        expect([
          'CsOrg',
          'CsWriteKind',
          'CsState',
          'CsRiskLane',
          'CsOutcome',
          'TemporalChangeVersion',
        ]).toContain(a);
    }
  });

  it('decodes with the codec to the same clear values (the check above can fail)', async () => {
    const setup = createPayloadCodec(testConfig(database, WITH_CODEC), database.db);
    const history = await rawHistory(gatewayWorkflowId(ORG, vendorKey));
    const decoded = await setup!.codec.decode(payloadsOf(history).map((s) => s.payload));
    const text = decoded.map(payloadText).join('\n');
    for (const secret of [IBAN, EMAIL, NOTE]) expect(text).toContain(secret);
    const post = await setup!.codec.decode(
      payloadsOf(await rawHistory(gatewayWorkflowId(ORG, postKey))).map((s) => s.payload),
    );
    expect(post.map(payloadText).join('\n')).toContain(`"${AMOUNT}"`);
  });

  it('replays encrypted histories with the codec, and clear ones from before it unchanged', async () => {
    const dataConverter = dataConverterOf(
      createPayloadCodec(testConfig(database, WITH_CODEC), database.db, { encode: false }),
    );
    const options = { workflowBundle: workflowBundle(), dataConverter };
    const id = gatewayWorkflowId(ORG, vendorKey);
    await Worker.runReplayHistory(options, await rawHistory(id), id);
    const legacy = JSON.parse(
      readFileSync(join(__dirname, 'histories', 'gateway-moderate-approved.json'), 'utf8'),
    ) as unknown;
    await Worker.runReplayHistory(options, legacy, 'gateway:acme:replay-moderate');
  });
});

describe('the codec endpoint', () => {
  let app: ReturnType<typeof createApiApp>;
  const keys: Record<string, string> = {};
  const UI = 'http://127.0.0.1:8233';

  beforeAll(async () => {
    app = createApiApp({
      db: database.db,
      client: worker.client,
      taskQueue: worker.taskQueue,
      codec: createPayloadCodec(testConfig(database, WITH_CODEC), database.db),
      codecCorsOrigins: [UI],
    });
    await ensureUser(database.db, {
      id: 'vera',
      email: 'vera@acme.example',
      displayName: 'Vera Viewer',
      orgId: ORG,
      roles: ['viewer'],
    });
    for (const [user, org] of [
      [OWNER, ORG],
      ['vera', ORG],
      [OUTSIDER, OTHER_ORG],
    ] as const)
      keys[user] = (
        await issueApiKey(
          database.db,
          { kind: 'user', userId: user },
          { issuedBy: 'test', orgId: org },
        )
      ).key;
  });

  const historyBody = async () => {
    const stored = payloadsOf(await rawHistory(gatewayWorkflowId(ORG, vendorKey)))
      .map((s) => s.payload)
      .filter((p) => bytesText(p.metadata?.encoding) === ENCRYPTED_ENCODING);
    return temporal.api.common.v1.Payloads.toObject(
      temporal.api.common.v1.Payloads.create({ payloads: stored }),
      { bytes: String },
    );
  };
  const call = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-namespace': 'countersign', ...headers },
      body: JSON.stringify(body),
    });
  const bearer = (user: string) => ({ authorization: `Bearer ${keys[user]}` });

  it('decodes the org’s history for its owner (protobuf JSON in and out)', async () => {
    const res = await call('/codec/decode', await historyBody(), { ...bearer(OWNER), origin: UI });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(UI);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    const out = temporal.api.common.v1.Payloads.fromObject((await res.json()) as object);
    const text = out.payloads.map(payloadText).join('\n');
    expect(text).toContain(IBAN);
    expect(out.payloads.every((p) => bytesText(p.metadata?.encoding) !== ENCRYPTED_ENCODING)).toBe(
      true,
    );
  });

  it('refuses a caller without a key (401) and says so to the UI’s origin', async () => {
    const res = await call('/codec/decode', await historyBody(), { origin: UI });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe(UI);
    expect(JSON.stringify(await res.json())).not.toContain(IBAN);
  });

  it('refuses the owner of another org (403) and decrypts nothing', async () => {
    const res = await call('/codec/decode', await historyBody(), bearer(OUTSIDER));
    expect(res.status).toBe(403);
    const body = (await res.json()) as { type: string };
    expect(body.type).toMatch(/payload-of-another-scope$/);
    expect(JSON.stringify(body)).not.toContain(IBAN);
  });

  it('refuses a member who may not read history (a viewer: 403)', async () => {
    const res = await call('/codec/decode', await historyBody(), bearer('vera'));
    expect(res.status).toBe(403);
    expect(((await res.json()) as { type: string }).type).toMatch(/action-not-permitted$/);
  });

  it('accepts the inbox session cookie, as the Web UI sends it with credentials', async () => {
    const login = await app.request('/v1/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: keys[OWNER] }),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const res = await call('/codec/decode', await historyBody(), { cookie, origin: UI });
    expect(res.status).toBe(200);
  });

  it('encodes under the caller’s org key, which its decode then opens', async () => {
    const clear = {
      payloads: [
        {
          metadata: { encoding: Buffer.from('json/plain').toString('base64') },
          data: Buffer.from('"hello"').toString('base64'),
        },
      ],
    };
    const enc = await call('/codec/encode', clear, bearer(OWNER));
    expect(enc.status).toBe(200);
    const encoded = (await enc.json()) as { payloads: { metadata: Record<string, string> }[] };
    const meta = encoded.payloads[0]?.metadata ?? {};
    expect(Buffer.from(meta.encoding ?? '', 'base64').toString()).toBe(ENCRYPTED_ENCODING);
    expect(Buffer.from(meta[KEY_ID_METADATA] ?? '', 'base64').toString()).toMatch(/^dk_/);
    const dec = await call('/codec/decode', encoded, bearer(OWNER));
    expect(await dec.json()).toEqual(clear);
    expect((await call('/codec/decode', encoded, bearer(OUTSIDER))).status).toBe(403);
  });

  it('answers the Web UI’s preflight for its origin only', async () => {
    const preflight = (origin: string) =>
      app.request('/codec/decode', {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,x-namespace',
        },
      });
    const ok = await preflight(UI);
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(UI);
    expect(ok.headers.get('access-control-allow-headers')).toContain('x-namespace');
    const other = await preflight('https://evil.example');
    expect(other.status).toBe(403);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});
