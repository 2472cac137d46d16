import { z } from 'zod';

/**
 * What a completed delegate run answers: the delegation named by its trigger
 * (`delegation.<type>` events carry `delegationRequestId`) and the structured answer its output
 * gives for it (`data.delegation: { requestId, answer }`). Pure: the workflow calls it.
 */
const Trigger = z.object({ delegationRequestId: z.string().min(1).max(300) });
const Output = z.object({
  delegation: z
    .object({
      requestId: z.string().min(1).max(300),
      answer: z.record(z.string(), z.unknown()).nullable(),
    })
    .nullable()
    .optional(),
});

export interface DelegationToClose {
  requestId: string;
  /** Null when the run gave no answer for it (the request is then failed, not left open). */
  answer: Record<string, unknown> | null;
}

/** The delegation a run triggered by one must close, or null when the trigger is no delegation. */
export function delegationToClose(
  triggerPayload: Record<string, unknown>,
  outputData: unknown,
): DelegationToClose | null {
  const t = Trigger.safeParse(triggerPayload);
  if (!t.success) return null;
  const requestId = t.data.delegationRequestId;
  const o = Output.safeParse(outputData);
  const d = o.success ? o.data.delegation : null;
  // An answer for another request is no answer for this one.
  return { requestId, answer: d && d.requestId === requestId ? d.answer : null };
}
