import { periodStatus, setPeriodStatus } from '../../../db/repositories/ledger';
import { ErrorType } from '../../../workflows/errors';
import { GatewayRefusal } from '../refusal';
import type { KindDef } from '../kind-def';
import { TREASURY } from './plan-helpers';

/** period.close and period.reopen: the same state change in opposite directions. */
export function periodStatusChange(
  target: 'open' | 'closed',
): KindDef<'period.close' | 'period.reopen'> {
  const conflict = (period: string) =>
    new GatewayRefusal(
      ErrorType.PeriodStateConflict,
      `Period ${period} is ${target === 'closed' ? 'already closed' : 'not closed'}`,
      [{ path: 'payload.period', message: target === 'closed' ? 'already closed' : 'not closed' }],
    );
  return {
    submitRoles: TREASURY,
    refs: () => [],
    async plan(ctx, p) {
      const current = await periodStatus(ctx.q, ctx.orgId, p.period);
      if ((current === 'closed') === (target === 'closed')) throw conflict(p.period);
      return {
        entries: [],
        facts: { periodChange: target === 'closed' ? 'close' : 'reopen' },
        async write(tx) {
          // The state is checked again inside the apply transaction: the plan may be stale.
          if (!(await setPeriodStatus(tx, ctx.orgId, p.period, target, ctx.submissionId)))
            throw conflict(p.period);
          return [
            {
              entityType: 'period',
              entityId: `${ctx.orgId}:${p.period}`,
              action: target === 'closed' ? 'closed' : 'reopened',
            },
          ];
        },
      };
    },
  };
}
