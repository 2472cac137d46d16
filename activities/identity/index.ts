import { ErrorType, permanentFailure } from '../../workflows/errors';
import { verifyDecisionProof, type DecisionClaims } from './secrets';

export type DecisionCheck = Omit<DecisionClaims, 'issuedAt' | 'expiresAt'> & { proof: string };

/**
 * Identity checks workflows cannot do themselves: the signing secret and the clock live
 * here, not in workflow code, and the verdict is recorded in history, so a replay never
 * re-judges an expired proof.
 */
export function createIdentityActivities({ secret }: { secret: string }) {
  return {
    /** Refuses a decision whose proof this platform did not sign for exactly this decision. */
    async identityVerifyDecision(input: DecisionCheck): Promise<{ verified: true }> {
      const { proof, ...expected } = input;
      const check = verifyDecisionProof(secret, proof, expected);
      if (!check.ok)
        throw permanentFailure(
          ErrorType.DecisionProofInvalid,
          `Decision proof refused (${check.reason}): ${check.detail}`,
          { reason: check.reason },
        );
      return { verified: true };
    },
  };
}
export type IdentityActivities = ReturnType<typeof createIdentityActivities>;
