import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../config/env';
import { decisionSecret } from '../activities/identity/decision-secret';
import { signDecisionProof, verifyDecisionProof } from '../activities/identity/secrets';

/**
 * Issue 25 item 8: the decision secret is an HMAC key of at least 32 bytes from any source. An
 * empty or short secret file used to be accepted as the key (and an empty one made every
 * proof forgeable by anyone who knew it was empty).
 */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cs-decision-secret-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const claims = {
  purpose: 'approval' as const,
  orgId: 'acme',
  subjectId: 'gateway:acme:k-1',
  userId: 'ann',
  decision: 'approve' as const,
};

describe('the decision secret', () => {
  it.each([
    ['empty', ''],
    ['short', 'x'.repeat(31)],
    ['blank', '   \n'],
  ])('refuses a secret file that is %s', (_what, content) => {
    const file = join(dir, 'decision-secret');
    writeFileSync(file, content);
    expect(() => decisionSecret({ DECISION_SECRET_FILE: file })).toThrow(ConfigError);
    expect(() => decisionSecret({ DECISION_SECRET_FILE: file })).toThrow(
      /needs at least 32: set DECISION_SIGNING_SECRET/,
    );
  });

  it('refuses a short secret from the environment, counted in bytes', () => {
    expect(() =>
      decisionSecret({ DECISION_SIGNING_SECRET: 'é'.repeat(15), DECISION_SECRET_FILE: 'unused' }),
    ).toThrow(ConfigError);
    expect(
      decisionSecret({ DECISION_SIGNING_SECRET: 'é'.repeat(16), DECISION_SECRET_FILE: 'unused' }),
    ).toBe('é'.repeat(16));
  });

  it('generates a 32-byte random secret once, mode 0600, and reads it back', () => {
    const file = join(dir, 'sub', 'decision-secret');
    const first = decisionSecret({ DECISION_SECRET_FILE: file });
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(file, 'utf8')).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(decisionSecret({ DECISION_SECRET_FILE: file })).toBe(first);
  });

  it('neither signs nor verifies with a short key, whatever passed it', () => {
    expect(() => signDecisionProof('', claims)).toThrow(ConfigError);
    const proof = signDecisionProof('k'.repeat(32), claims);
    expect(() => verifyDecisionProof('', proof, claims)).toThrow(ConfigError);
    expect(verifyDecisionProof('k'.repeat(32), proof, claims)).toMatchObject({ ok: true });
  });
});
