/** Accounting periods (YYYY-MM) and their writes: period.close and period.reopen. */
import { z } from 'zod';
import { Text } from './fields';

export const PeriodSchema = z
  .string()
  .regex(/^(19\d\d|2[01]\d\d|2200)-(0[1-9]|1[0-2])$/, 'a period as YYYY-MM, 1900 to 2200');
export const PeriodCloseSchema = z.object({ period: PeriodSchema }).strict();
export const PeriodReopenSchema = z.object({ period: PeriodSchema, reason: Text(500) }).strict();
