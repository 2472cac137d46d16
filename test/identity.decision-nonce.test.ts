import { MockActivityEnvironment } from '@temporalio/testing';
import { createTestDatabase } from './support/database';
import type { Database } from '../db/connection';
import { createIdentityActivities, type ApprovalCheck } from '../activities/identity';
import { APPROVAL_PROOF_TTL_MS, signDecisionProof } from '../activities/identity/secrets';
import { NONCE_PRUNE_GRACE_MS, pruneDecisionNonces } from '../db/repositories/decision-nonces';

/**
 * Issue 25 item 6: an approval proof names the plan revision and hash it signs, carries a
 * nonce that is spent once (in the database, so a restarted or another worker refuses it
 * too), and lives a minute. Before, a proof named no plan, had no nonce and lived 5 minutes:
 * read from history, it could be sent again onto a new revision.
 */
const SECRET = 's'.repeat(48);
let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const H0 = '0'.repeat(64);
const H1 = '1'.repeat(64);
const decision = {
  orgId: 'acme',
  subjectId: 'gateway:acme:nonce-1',
  userId: 'ann',
  decision: 'approve' as const,
};
const sign = (
  over: Partial<Parameters<typeof signDecisionProof>[1]> = {},
  ttl?: number,
  now?: number,
) =>
  signDecisionProof(
    SECRET,
    { purpose: 'approval', ...decision, roles: ['approver'], revision: 0, planHash: H0, ...over },
    ttl ?? APPROVAL_PROOF_TTL_MS,
    now,
  );

/** The check as one activity attempt of one workflow run runs it. */
function verify(check: ApprovalCheck, runId: string, activityId: string) {
  const activities = createIdentityActivities({ secret: SECRET, db: database.db });
  return new MockActivityEnvironment({
    activityId,
    workflowExecution: { workflowId: check.subjectId, runId },
  }).run(activities.identityVerifyApproval, check);
}

const refusalOf = async (p: Promise<unknown>) => {
  const err = (await p.catch((e: unknown) => e)) as { type?: string; message?: string };
  return { type: err.type, message: err.message };
};

describe('an approval proof', () => {
  it('is spent once: its own retry passes, any other use is refused, after a restart too', async () => {
    const proof = sign();
    const check = { ...decision, proof, revision: 0, planHash: H0 };
    await expect(verify(check, 'run-1', '7')).resolves.toEqual({ verified: true });
    // The same activity retried (its completion lost): its own claim, not a replay.
    await expect(verify(check, 'run-1', '7')).resolves.toEqual({ verified: true });
    // Another Update (another activity), another run, a fresh activities instance (a worker
    // restart): the nonce is in the database, so the proof is refused.
    for (const [run, act] of [
      ['run-1', '8'],
      ['run-2', '7'],
    ] as const)
      expect(await refusalOf(verify(check, run, act))).toEqual({
        type: 'DecisionProofInvalid',
        message: 'Decision proof refused (replayed): this proof has already been used',
      });
    const { rows } = await database.pool.query<{ n: string }>(
      `select count(*) as n from decision_nonces where subject_id = $1`,
      [decision.subjectId],
    );
    expect(rows).toEqual([{ n: '1' }]);
  });

  it('is bound to the plan revision and hash it names', async () => {
    expect(
      await refusalOf(
        verify({ ...decision, proof: sign(), revision: 1, planHash: H0 }, 'run-3', '1'),
      ),
    ).toEqual({
      type: 'DecisionProofInvalid',
      message: 'Decision proof refused (mismatch): the proof is for revision 0, not 1',
    });
    expect(
      await refusalOf(
        verify({ ...decision, proof: sign(), revision: 0, planHash: H1 }, 'run-3', '2'),
      ),
    ).toEqual({
      type: 'DecisionProofInvalid',
      message: `Decision proof refused (mismatch): the proof is for planHash "${H0}", not "${H1}"`,
    });
    // A proof signed before proofs named a plan (no revision, no hash, no nonce) is refused.
    const bare = signDecisionProof(SECRET, { purpose: 'approval', ...decision, nonce: undefined });
    expect(
      (
        await refusalOf(
          verify({ ...decision, proof: bare, revision: 0, planHash: H0 }, 'run-3', '3'),
        )
      ).message,
    ).toMatch(/^Decision proof refused \(mismatch\): the proof is for revision null, not 0$/);
    const noNonce = signDecisionProof(SECRET, {
      purpose: 'approval',
      ...decision,
      revision: 0,
      planHash: H0,
      nonce: undefined,
    });
    expect(
      await refusalOf(
        verify({ ...decision, proof: noNonce, revision: 0, planHash: H0 }, 'run-3', '4'),
      ),
    ).toEqual({
      type: 'DecisionProofInvalid',
      message: 'Decision proof refused (malformed): an approval proof carries a nonce',
    });
  });

  it('lives a minute', async () => {
    const old = sign({}, APPROVAL_PROOF_TTL_MS, Date.now() - APPROVAL_PROOF_TTL_MS - 1);
    expect(
      (
        await refusalOf(
          verify({ ...decision, proof: old, revision: 0, planHash: H0 }, 'run-4', '1'),
        )
      ).message,
    ).toMatch(/^Decision proof refused \(expired\)/);
    expect(APPROVAL_PROOF_TTL_MS).toBeLessThanOrEqual(60_000);
  });

  it('forgets spent nonces only well after their proofs expired', async () => {
    const now = new Date();
    await database.pool.query(
      `insert into decision_nonces (nonce, org_id, subject_id, user_id, consumed_by, expires_at)
       values ('n-recent', 'acme', 's', 'u', 'c', $1), ('n-old', 'acme', 's', 'u', 'c', $2)`,
      [new Date(now.getTime() - 60_000), new Date(now.getTime() - NONCE_PRUNE_GRACE_MS - 1000)],
    );
    expect(await pruneDecisionNonces(database.db, now)).toBe(1);
    const { rows } = await database.pool.query<{ nonce: string }>(
      `select nonce from decision_nonces where nonce like 'n-%'`,
    );
    expect(rows).toEqual([{ nonce: 'n-recent' }]);
  });
});
