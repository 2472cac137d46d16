import { and, eq, sql } from 'drizzle-orm';
import { gatewayRiskSettings, memberships, users } from '../../../db/schema';
import { getRiskSettings } from '../../../db/repositories/gateway';
import { type Q } from '../../../db/repositories/ledger';
import { ErrorType } from '../../../workflows/errors';
import { GatewayRefusal } from '../refusal';
import type { KindDef } from '../kind-def';
import { TREASURY, holdsRole } from './plan-helpers';

/** Who may do what: memberships granted and revoked, and the org's risk settings. */
export const membershipGrantKind: KindDef<'membership.grant'> = {
  submitRoles: TREASURY,
  refs: () => [],
  async plan(ctx, p) {
    const [user] = await ctx.q.select({ id: users.id }).from(users).where(eq(users.id, p.userId));
    if (!user)
      throw new GatewayRefusal(ErrorType.UnknownEntity, `Unknown user ${p.userId}`, [
        { path: 'payload.userId', message: 'unknown user' },
      ]);
    if (await holdsRole(ctx.q, ctx.orgId, p.userId, p.role))
      throw new GatewayRefusal(
        ErrorType.DuplicateEntity,
        `User ${p.userId} already holds ${p.role} in org ${ctx.orgId}`,
        [{ path: 'payload.role', message: 'already granted' }],
      );
    return {
      entries: [],
      facts: { roleChange: { action: 'grant', role: p.role } },
      async write(tx) {
        await tx.insert(memberships).values({ orgId: ctx.orgId, userId: p.userId, role: p.role });
        return [{ entityType: 'membership', entityId: `${p.userId}:${p.role}`, action: 'granted' }];
      },
    };
  },
};

export const membershipRevokeKind: KindDef<'membership.revoke'> = {
  submitRoles: TREASURY,
  refs: () => [],
  async plan(ctx, p) {
    if (!(await holdsRole(ctx.q, ctx.orgId, p.userId, p.role)))
      throw new GatewayRefusal(
        ErrorType.UnknownEntity,
        `User ${p.userId} does not hold ${p.role} in org ${ctx.orgId}`,
        [{ path: 'payload.role', message: 'not granted' }],
      );
    const lastOwner = async (q: Q) =>
      p.role === 'owner' &&
      (
        await q
          .select({ n: sql<number>`count(*)::int` })
          .from(memberships)
          .where(and(eq(memberships.orgId, ctx.orgId), eq(memberships.role, 'owner')))
      )[0]?.n === 1;
    const refuseLastOwner = () =>
      new GatewayRefusal(ErrorType.InvalidWrite, `Org ${ctx.orgId} would have no owner left`, [
        { path: 'payload.role', message: 'the last owner cannot be revoked' },
      ]);
    if (await lastOwner(ctx.q)) throw refuseLastOwner();
    return {
      entries: [],
      facts: { roleChange: { action: 'revoke', role: p.role } },
      async write(tx) {
        if (await lastOwner(tx)) throw refuseLastOwner();
        await tx
          .delete(memberships)
          .where(
            and(
              eq(memberships.orgId, ctx.orgId),
              eq(memberships.userId, p.userId),
              eq(memberships.role, p.role),
            ),
          );
        return [{ entityType: 'membership', entityId: `${p.userId}:${p.role}`, action: 'revoked' }];
      },
    };
  },
};

export const riskSettingsUpdateKind: KindDef<'risk_settings.update'> = {
  submitRoles: TREASURY,
  refs: () => [],
  async plan(ctx, p) {
    const current = await getRiskSettings(ctx.q, ctx.orgId);
    const loosens =
      BigInt(p.moderateAmountMinor) > BigInt(current.moderateAmountMinor) ||
      BigInt(p.highAmountMinor) > BigInt(current.highAmountMinor) ||
      p.highLaneApprovals < current.highLaneApprovals;
    return {
      entries: [],
      facts: { settingsChange: loosens ? 'loosen' : 'tighten' },
      async write(tx) {
        const values = {
          orgId: ctx.orgId,
          moderateAmountMinor: BigInt(p.moderateAmountMinor),
          highAmountMinor: BigInt(p.highAmountMinor),
          highLaneApprovals: p.highLaneApprovals,
        };
        await tx
          .insert(gatewayRiskSettings)
          .values(values)
          .onConflictDoUpdate({
            target: gatewayRiskSettings.orgId,
            set: { ...values, updatedAt: sql`now()` },
          });
        return [{ entityType: 'risk_settings', entityId: ctx.orgId, action: 'updated' }];
      },
    };
  },
};
