import { z } from 'zod';

/**
 * The declarative form a request's answer must fill: a few typed fields, each required or
 * not. It travels with the request (workflow input, database row, inbox), so it is data,
 * never code; `answerValidator` turns it into a zod schema when an answer arrives.
 */
const FieldName = z
  .string()
  .regex(/^[a-z][a-zA-Z0-9_]{0,63}$/, 'a field name such as ledger_code or approved');

const BaseField = {
  name: FieldName,
  label: z.string().min(1).max(200),
  required: z.boolean().default(true),
};

export const AnswerFieldSchema = z.discriminatedUnion('kind', [
  z
    .object({
      ...BaseField,
      kind: z.literal('text'),
      maxLength: z.number().int().min(1).max(10_000).default(2000),
    })
    .strict(),
  z
    .object({
      ...BaseField,
      kind: z.literal('enum'),
      options: z.array(z.string().min(1).max(100)).min(2).max(50),
    })
    .strict(),
  z
    .object({
      ...BaseField,
      kind: z.literal('number'),
      integer: z.boolean().default(false),
      min: z.number().optional(),
      max: z.number().optional(),
    })
    .strict(),
  z.object({ ...BaseField, kind: z.literal('boolean') }).strict(),
  z
    .object({
      ...BaseField,
      kind: z.literal('code_per_item'),
      /** The items each needing a code, e.g. bill lines needing a ledger account code. */
      items: z
        .array(
          z.object({ id: z.string().min(1).max(100), label: z.string().min(1).max(500) }).strict(),
        )
        .min(1)
        .max(200),
      /** The codes allowed (e.g. the org's ledger codes); empty: any code of the pattern. */
      codes: z.array(z.string().min(1).max(50)).max(2000).default([]),
    })
    .strict(),
]);
export type AnswerField = z.output<typeof AnswerFieldSchema>;

export const AnswerSchemaSchema = z
  .object({ fields: z.array(AnswerFieldSchema).min(1).max(50) })
  .strict()
  .superRefine((s, ctx) => {
    const seen = new Set<string>();
    s.fields.forEach((f, i) => {
      if (seen.has(f.name))
        ctx.addIssue({
          code: 'custom',
          path: ['fields', i, 'name'],
          message: `duplicate field ${f.name}`,
        });
      seen.add(f.name);
    });
  });
export type AnswerSchema = z.output<typeof AnswerSchemaSchema>;
export type AnswerSchemaInput = z.input<typeof AnswerSchemaSchema>;

/** A structured answer: field name → value (code_per_item: item id → code). */
export type Answer = Record<string, unknown>;

const CODE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,49}$/;

function fieldValidator(f: AnswerField): z.ZodType {
  switch (f.kind) {
    case 'text':
      return z.string().trim().min(1).max(f.maxLength);
    case 'enum':
      return z.enum(f.options as [string, ...string[]]);
    case 'number': {
      let n = z.number().finite();
      if (f.integer) n = n.int();
      if (f.min !== undefined) n = n.min(f.min);
      if (f.max !== undefined) n = n.max(f.max);
      return n;
    }
    case 'boolean':
      return z.boolean();
    case 'code_per_item': {
      const code =
        f.codes.length > 0
          ? z
              .string()
              .refine((c) => f.codes.includes(c), { message: 'not one of the allowed codes' })
          : z.string().regex(CODE, 'a code such as 6100');
      return z.object(Object.fromEntries(f.items.map((it) => [it.id, code]))).strict();
    }
  }
}

/** The zod schema of an answer to this form: unknown fields refused, required ones present. */
export function answerValidator(schema: AnswerSchema): z.ZodType<Answer> {
  return z
    .object(
      Object.fromEntries(
        schema.fields.map((f) => [
          f.name,
          f.required ? fieldValidator(f) : fieldValidator(f).optional(),
        ]),
      ),
    )
    .strict() as unknown as z.ZodType<Answer>;
}

export type AnswerCheck = { ok: true; answer: Answer } | { ok: false; issues: string[] };

/** Validates a structured answer against its form; issues carry zod paths (`codes.line-2`). */
export function checkAnswer(schema: AnswerSchema, answer: unknown): AnswerCheck {
  const r = answerValidator(schema).safeParse(answer);
  if (r.success) return { ok: true, answer: r.data };
  return {
    ok: false,
    issues: r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`),
  };
}
