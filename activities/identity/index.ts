import { Context } from '@temporalio/activity';
import type { Db } from '../../db/connection';
import { claimDecisionNonce, pruneDecisionNonces } from '../../db/repositories/decision-nonces';
import { ErrorType, permanentFailure } from '../../workflows/errors';
import { verifyDecisionProof, type DecisionClaims } from './secrets';

export type DecisionCheck = Omit<DecisionClaims, 'issuedAt' | 'expiresAt'> & { proof: string };

/** An approval's check: the decision and the plan (revision and hash) it names. */
export type ApprovalCheck = Omit<DecisionCheck, 'purpose' | 'roles' | 'nonce' | 'decision'> & {
  decision: 'approve' | 'reject';
  revision: number;
  planHash: string;
};

function refused(reason: string, detail: string) {
  return permanentFailure(
    ErrorType.DecisionProofInvalid,
    `Decision proof refused (${reason}): ${detail}`,
    { reason },
  );
}

/**
 * Identity checks workflows cannot do themselves: the signing secret and the clock live
 * here, not in workflow code, and the verdict is recorded in history, so a replay never
 * re-judges an expired proof.
 */
export function createIdentityActivities({ secret, db }: { secret: string; db: Db }) {
  return {
    /** Refuses a decision whose proof this platform did not sign for exactly this decision. */
    async identityVerifyDecision(input: DecisionCheck): Promise<{ verified: true }> {
      const { proof, ...expected } = input;
      const check = verifyDecisionProof(secret, proof, expected);
      if (!check.ok) throw refused(check.reason, check.detail);
      return { verified: true };
    },

    /**
     * An approval's proof: signed for this decision on exactly this plan revision and hash,
     * unexpired, and used once. Its nonce is claimed in the database (decision_nonces), so a
     * proof lifted from history is refused even within its minute, on any worker, after a
     * restart. A retry of this same activity finds its own claim and passes.
     */
    async identityVerifyApproval(input: ApprovalCheck): Promise<{ verified: true }> {
      const { proof, ...expected } = input;
      const check = verifyDecisionProof(secret, proof, { ...expected, purpose: 'approval' });
      if (!check.ok) throw refused(check.reason, check.detail);
      const { nonce, expiresAt } = check.claims;
      if (!nonce) throw refused('malformed', 'an approval proof carries a nonce');
      const info = Context.current().info;
      const claim = await claimDecisionNonce(db, {
        nonce,
        orgId: input.orgId,
        subjectId: input.subjectId,
        userId: input.userId,
        consumedBy: `${info.workflowExecution?.runId ?? 'standalone'}/${info.activityId}`,
        expiresAt: new Date(expiresAt),
      });
      if (claim === 'replayed') throw refused('replayed', 'this proof has already been used');
      // The table holds only live proofs' nonces: an expired one is refused before its claim.
      await pruneDecisionNonces(db);
      return { verified: true };
    },
  };
}
export type IdentityActivities = ReturnType<typeof createIdentityActivities>;
