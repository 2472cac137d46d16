/**
 * The contact fields vendors and customers share (email, phone, tax id, payment terms), and the
 * placeholder flags that say which of them are not real yet.
 */
import { z } from 'zod';
import { isPlaceholderEmail } from '../placeholder-email';
import { IdSchema } from './fields';

export const ContactFields = {
  email: z.email().max(320).optional(),
  phone: z
    .string()
    .regex(/^\+?[0-9 ().-]{5,30}$/)
    .optional(),
  taxId: z.string().max(50).optional(),
  paymentTermsId: IdSchema.optional(),
};

/**
 * Contact fields that hold a reserved placeholder until a person fills them. A flagged field
 * must be present and, for email, on a reserved domain (RFC 2606/6761): a flag never hides a
 * real address, and the record says exactly which fields are not real.
 */
export const PLACEHOLDER_FIELDS = ['email', 'phone'] as const;
export const PlaceholderFieldsSchema = z
  .array(z.enum(PLACEHOLDER_FIELDS))
  .max(PLACEHOLDER_FIELDS.length);
export const placeholdersHonest = (
  c: { placeholderFields?: string[]; email?: unknown; phone?: unknown },
  ctx: z.RefinementCtx,
) => {
  for (const f of c.placeholderFields ?? []) {
    const v = (c as Record<string, unknown>)[f];
    if (typeof v !== 'string')
      ctx.addIssue({
        code: 'custom',
        path: ['placeholderFields'],
        message: `${f} is flagged as a placeholder but not given`,
      });
    else if (f === 'email' && !isPlaceholderEmail(v))
      ctx.addIssue({
        code: 'custom',
        path: ['placeholderFields'],
        message: `email ${v} is flagged as a placeholder but is not on a reserved domain`,
      });
  }
};
