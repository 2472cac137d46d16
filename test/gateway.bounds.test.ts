import fc from 'fast-check';
import { parseWrite, WRITE_KINDS } from '../workflows/gateway/writes';
import { checkInputBounds } from '../workflows/input-bounds';
import { AnalysisRequestSchema } from '../workflows/analysis.contract';
import { ReviewDecisionSchema } from '../workflows/analysis/review';
import { ApprovalDecisionSchema } from '../workflows/gateway.contract';
import { jsonDepthExceeds } from '../api/server';
import { refusalFromDb } from '../activities/gateway/refusal';
import { closeSync, mkdtempSync, openSync, rmSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ingestFile } from '../client/documents';
import { InvalidRequestError } from '../client/errors';
import { MAX_DOCUMENT_BYTES } from '../workflows/input-bounds';

/**
 * Hostile values against every write kind and request schema: each is refused with a clear
 * issue (a path and a message), never a throw, never accepted. Pure: no services.
 */
const submitter = { kind: 'user', userId: 'bob' };
const base = (kind: string, payload: unknown) => ({
  orgId: 'acme',
  idempotencyKey: 'k-1',
  submitter,
  kind,
  payload,
});

/** Hostile leaves: NUL, lone surrogates, prototype-ish strings, extreme numbers and dates. */
const hostileLeaf = fc.oneof(
  fc.constant('a\u0000b'),
  fc.constant('x\ud800'),
  fc.constant('\udc00y'),
  fc.constant('__proto__'),
  fc.constant('constructor'),
  fc.constant('0000-01-01'),
  fc.constant('9999-12-31'),
  fc.constant('-000001-01-01'),
  fc.constant('99999999999999999999'),
  fc.constant('9223372036854775808'),
  fc.constant(Number.MAX_VALUE),
  fc.constant(-1),
  fc.constant(0.5),
  fc.constant(1e308),
  fc.constant(Number.MAX_SAFE_INTEGER),
  fc.constant(''),
  fc.constant('y'.repeat(200_001)),
);

/** An object with a prototype key, as JSON.parse builds it (an own "__proto__" key). */
const protoObject = fc.constantFrom(
  JSON.parse('{"__proto__": {"polluted": true}}') as unknown,
  JSON.parse('{"constructor": {"prototype": {"x": 1}}}') as unknown,
  { prototype: 1 },
);

const deep = fc.integer({ min: 17, max: 200 }).map((n) => {
  let v: unknown = 'leaf';
  for (let i = 0; i < n; i++) v = i % 2 ? [v] : { a: v };
  return v;
});

/** Replaces one value somewhere inside a sample valid payload with a hostile one. */
function inject(sample: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string, ...string[]];
  if (Array.isArray(sample)) {
    const copy = [...sample];
    copy[Number(head) % Math.max(copy.length, 1)] = inject(
      copy[Number(head) % Math.max(copy.length, 1)],
      rest,
      value,
    );
    return copy;
  }
  const o = (sample ?? {}) as Record<string, unknown>;
  return { ...o, [head]: inject(o[head], rest, value) };
}

const SAMPLES: Record<string, unknown> = {
  'journal.post': {
    entryDate: '2025-03-15',
    memo: 'm',
    lines: [
      { accountId: 'a', currency: 'USD', debit: '10' },
      { accountId: 'b', currency: 'USD', credit: '10' },
    ],
  },
  'journal.reverse': { entryId: 'e', reversalDate: '2025-03-15', reason: 'r' },
  'journal.post_batch': {
    entries: [
      {
        key: 'k-1',
        entryDate: '2025-03-15',
        memo: 'm',
        lines: [
          { accountId: 'a', currency: 'USD', debit: '10' },
          { accountId: 'b', currency: 'USD', credit: '10' },
        ],
      },
    ],
  },
  'bill.post': {
    vendorId: 'v',
    billNumber: 'B-1',
    billDate: '2025-03-15',
    currency: 'USD',
    lines: [{ description: 'd', amountMinor: '10' }],
  },
  'bill.post_batch': {
    entries: [
      {
        key: 'doc:d-1',
        sourceDocumentId: 'd-1',
        vendorId: 'v',
        billNumber: 'B-1',
        billDate: '2025-03-15',
        currency: 'USD',
        lines: [{ description: 'd', amountMinor: '10' }],
      },
    ],
  },
  'bill.credit': {
    vendorId: 'v',
    creditNumber: 'CN-1',
    creditDate: '2025-03-15',
    currency: 'USD',
    precedingBillNumber: 'B-1',
    lines: [{ description: 'd', amountMinor: '10' }],
  },
  'payment.send': {
    vendorId: 'v',
    fromBankAccountId: 'b',
    amountMinor: '10',
    currency: 'USD',
    paymentDate: '2025-03-15',
  },
  'vendor.create': { name: 'V' },
  'vendor.update': { vendorId: 'v', changes: { name: 'W' } },
  'bank_line.match': { bankLineId: 'l', entryId: 'e' },
  'bill.settle': { billId: 'b', bankLineId: 'l' },
  'period.close': { period: '2025-03' },
  'period.reopen': { period: '2025-03', reason: 'r' },
  'customer.create': { name: 'C' },
  'tax_code.create': {
    code: 'VAT',
    name: 'VAT',
    kind: 'vat',
    rateBasisPoints: 2000,
    effectiveFrom: '2025-01-01',
    accountId: 'a',
  },
  'payment_terms.create': { code: 'N30', name: 'Net 30', dueDays: 30 },
  'bank_account.create': {
    details: { holderName: 'H', accountNumber: '12345678', currency: 'USD' },
    ledgerAccountId: 'a',
  },
  'account.create': { code: '6210', name: 'Supplies', type: 'expense' },
  'account.update': { accountId: 'a', changes: { name: 'N', active: true } },
  'membership.grant': { userId: 'u', role: 'approver' },
  'membership.revoke': { userId: 'u', role: 'approver', reason: 'r' },
  'risk_settings.update': {
    moderateAmountMinor: '1000',
    highAmountMinor: '5000',
    highLaneApprovals: 2,
  },
};

/** Bounds first, then the schema: what the client, the API and the workflow all do. */
function judge(
  raw: unknown,
): { ok: true } | { ok: false; issues: { path: string; message: string }[] } {
  const b = checkInputBounds(raw);
  if (!b.ok) return b;
  const p = parseWrite(raw);
  return p.ok ? { ok: true } : { ok: false, issues: p.issues };
}

describe('hostile values against every write kind', () => {
  it('has a valid sample per kind (so refusals below are caused by the hostile value)', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...WRITE_KINDS].sort());
    for (const kind of WRITE_KINDS) expect(judge(base(kind, SAMPLES[kind]))).toEqual({ ok: true });
  });

  it('a hostile leaf anywhere in a payload is refused with a path, or is harmless and valid', () => {
    const paths: Record<string, string[][]> = {};
    const collect = (v: unknown, at: string[], out: string[][]) => {
      out.push(at);
      if (v && typeof v === 'object')
        for (const [k, x] of Object.entries(v)) collect(x, [...at, k], out);
    };
    for (const kind of WRITE_KINDS) collect(SAMPLES[kind], [], (paths[kind] = []));
    fc.assert(
      fc.property(
        fc.constantFrom(...WRITE_KINDS),
        fc.nat(),
        fc.oneof(hostileLeaf, protoObject, deep),
        (kind, pick, value) => {
          const ps = paths[kind] as string[][];
          const at = ps[pick % ps.length] as string[];
          const raw = base(kind, inject(SAMPLES[kind], at, value));
          let verdict: ReturnType<typeof judge> | undefined;
          expect(() => (verdict = judge(raw))).not.toThrow();
          if (verdict && !verdict.ok) {
            expect(verdict.issues.length).toBeGreaterThan(0);
            for (const i of verdict.issues) expect(i.message.length).toBeGreaterThan(0);
            return;
          }
          // Accepted only when the value is ordinary text at a free-text field (e.g. a memo
          // that says "constructor"): never NUL, surrogates, prototype keys, depth, extremes.
          expect(typeof value).toBe('string');
          expect(value).toMatch(/^(__proto__|constructor|[0-9-]+|y+)$/);
          expect(checkInputBounds(value).ok).toBe(true);
        },
      ),
      { numRuns: 600 },
    );
  });

  it('prototype keys are never write kinds or accepted keys', () => {
    for (const kind of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype']) {
      const r = judge(base(kind, {}));
      expect(r.ok).toBe(false);
      expect(!r.ok && r.issues.map((i) => i.path)).toEqual(['kind']);
    }
    const polluted = JSON.parse(
      '{"orgId":"acme","idempotencyKey":"k","submitter":{"kind":"user","userId":"u"},"kind":"period.close","payload":{"period":"2025-03","__proto__":{"admin":true}}}',
    ) as unknown;
    expect(judge(polluted)).toEqual({
      ok: false,
      issues: [{ path: 'payload.__proto__', message: 'the key "__proto__" is not allowed' }],
    });
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('amounts, dates and approval windows outside their bounds are refused at the exact path', () => {
    const amounts = fc.bigInt({ min: 10n ** 15n, max: 10n ** 30n }).map(String);
    fc.assert(
      fc.property(amounts, (a) => {
        const r = judge(
          base('payment.send', { ...(SAMPLES['payment.send'] as object), amountMinor: a }),
        );
        expect(!r.ok && r.issues.map((i) => i.path)).toEqual(['payload.amountMinor']);
      }),
    );
    const years = fc.oneof(fc.integer({ min: 0, max: 1899 }), fc.integer({ min: 2201, max: 9999 }));
    fc.assert(
      fc.property(years, (y) => {
        const d = `${String(y).padStart(4, '0')}-06-15`;
        const r = judge(base('journal.reverse', { entryId: 'e', reversalDate: d, reason: 'r' }));
        expect(r).toEqual({
          ok: false,
          issues: [{ path: 'payload.reversalDate', message: 'a date between 1900 and 2200' }],
        });
      }),
    );
    const windows = fc.oneof(
      fc.integer({ min: -1e9, max: 59_999 }),
      fc.integer({ min: 5 * 365 * 86_400_000 + 1, max: Number.MAX_SAFE_INTEGER }),
    );
    fc.assert(
      fc.property(windows, fc.constantFrom('dueAfterMs', 'expireAfterMs'), (ms, field) => {
        const r = judge({
          ...base('period.close', { period: '2025-03' }),
          approval: { [field]: ms },
        });
        expect(!r.ok && r.issues.map((i) => i.path)).toEqual([`approval.${field}`]);
      }),
    );
  });
});

describe('hostile values against the request and decision schemas', () => {
  const request = {
    requestId: 'r-1',
    orgId: 'acme',
    docIds: ['d'],
    queryType: 'extract_metric',
    queryText: 'What is revenue?',
  };
  it('the analysis request refuses hostile text, deep nesting and sub-minute or endless review timers', () => {
    expect(AnalysisRequestSchema.safeParse(request).success).toBe(true);
    fc.assert(
      fc.property(
        fc.constantFrom('requestId', 'orgId', 'queryText'),
        fc.oneof(
          hostileLeaf.filter(
            (v) =>
              typeof v === 'string' &&
              v !== '__proto__' &&
              v !== 'constructor' &&
              !/^[0-9-]+$/.test(v),
          ),
          deep,
        ),
        (field, value) => {
          const raw = { ...request, [field]: value };
          const ok = checkInputBounds(raw).ok && AnalysisRequestSchema.safeParse(raw).success;
          expect(ok).toBe(false);
        },
      ),
    );
    fc.assert(
      fc.property(
        fc.constantFrom('dueAfterMs', 'remindEveryMs', 'expireAfterMs'),
        fc.oneof(fc.integer({ min: -1e6, max: 59_999 }), fc.constant(1e15)),
        (field, ms) => {
          const r = AnalysisRequestSchema.safeParse({ ...request, review: { [field]: ms } });
          expect(r.success).toBe(false);
          expect(!r.success && r.error.issues.map((i) => i.path.join('.'))).toEqual([
            `review.${field}`,
          ]);
        },
      ),
    );
  });

  it('decisions refuse unknown fields and oversized notes', () => {
    expect(
      ApprovalDecisionSchema.safeParse({
        decision: 'approve',
        approver: { userId: 'a', orgId: 'o' },
        note: 'n'.repeat(4001),
      }).success,
    ).toBe(false);
    expect(
      ReviewDecisionSchema.safeParse({
        decision: 'approve',
        reviewer: { userId: 'a', orgId: 'o' },
        proof: 'p'.repeat(4001),
      }).success,
    ).toBe(false);
  });
});

describe('the HTTP body and database errors', () => {
  it('measures JSON depth in one pass, ignoring brackets inside strings', () => {
    expect(jsonDepthExceeds('[[[]]]', 3)).toBe(false);
    expect(jsonDepthExceeds('[[[[]]]]', 3)).toBe(true);
    expect(jsonDepthExceeds('{"a":"[[[[[[\\"[[["}', 2)).toBe(false);
    expect(jsonDepthExceeds('['.repeat(1_000_000), 32)).toBe(true);
  });

  it('maps numeric overflow and unstorable text to a typed, non-retried refusal', () => {
    const overflow = refusalFromDb({ code: '22003', message: 'bigint out of range' });
    expect(overflow).toMatchObject({
      type: 'ValueOutOfRange',
      message: 'A number is out of the range the books can hold (bigint out of range)',
    });
    expect(
      refusalFromDb({ code: '22P05', message: 'unsupported Unicode escape sequence' })?.type,
    ).toBe('ValueOutOfRange');
    expect(overflow?.toFailure().nonRetryable).toBe(true);
    // A connection failure is not a verdict: it stays retryable (no refusal).
    expect(refusalFromDb({ code: '08006', message: 'connection failure' })).toBeUndefined();
  });
});

describe('uploaded documents', () => {
  it('a file over the size limit is refused before it is stored or parsed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-bounds-'));
    const file = join(dir, 'huge.txt');
    const fd = openSync(file, 'w');
    ftruncateSync(fd, MAX_DOCUMENT_BYTES + 1); // sparse: no disk used
    closeSync(fd);
    try {
      // No database and no Temporal client: the refusal comes first.
      const err = await ingestFile(
        { db: null as never, client: null as never },
        { orgId: 'acme', path: file },
      ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InvalidRequestError);
      expect((err as InvalidRequestError).issues).toEqual([
        { path: 'path', message: `larger than ${MAX_DOCUMENT_BYTES} bytes` },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
