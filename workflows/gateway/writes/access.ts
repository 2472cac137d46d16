/** Access writes: membership.grant, membership.revoke and risk_settings.update. */
import { z } from 'zod';
import { ROLES } from '../../roles';
import { DIGITS, PositiveMinorUnitsSchema, Text } from './fields';

const UserIdSchema = z.string().min(1).max(128);
export const MembershipGrantSchema = z
  .object({ userId: UserIdSchema, role: z.enum(ROLES) })
  .strict();
export const MembershipRevokeSchema = z
  .object({ userId: UserIdSchema, role: z.enum(ROLES), reason: Text(500) })
  .strict();

export const RiskSettingsUpdateSchema = z
  .object({
    moderateAmountMinor: PositiveMinorUnitsSchema,
    highAmountMinor: PositiveMinorUnitsSchema,
    highLaneApprovals: z.number().int().min(2).max(10),
  })
  .strict()
  .refine(
    (s) =>
      !DIGITS.test(String(s.highAmountMinor)) ||
      !DIGITS.test(String(s.moderateAmountMinor)) ||
      BigInt(s.highAmountMinor) >= BigInt(s.moderateAmountMinor),
    { message: 'the high threshold is at least the moderate one', path: ['highAmountMinor'] },
  );
