import type { SerializationContext } from '@temporalio/common';

/**
 * Which data key encrypts a payload. A codec sees only payloads and the SDK's serialization
 * context (the workflow id that owns them, or for an activity the id of the workflow that
 * scheduled it), so the org comes from the workflow id: every per-org workflow's id is built by
 * its contract as `<kind>:<org>:…` (gateway, analysis, ingest, event, request, agent-run).
 * Everything else — the slot semaphores, the delegation watch, scheduled events, a payload
 * without a context (a Schedule's description, a client's query of an unknown id) — uses the
 * platform key, which the org-scoped codec endpoint never decrypts.
 */
export const PLATFORM_SCOPE = 'platform';
const ORG_KINDS = ['gateway', 'analysis', 'ingest', 'event', 'request', 'agent-run'] as const;

/**
 * The org of a workflow id (its second `:`-separated part), or null. Sound only while org ids
 * hold no `:` (issue 25 item 8 restricts them): today the runs of an org `a:b` would be
 * encrypted under org `a`'s key.
 */
export function orgOfWorkflowId(workflowId: string): string | null {
  const first = workflowId.indexOf(':');
  if (first < 0) return null;
  const kind = workflowId.slice(0, first);
  if (!(ORG_KINDS as readonly string[]).includes(kind)) return null;
  const second = workflowId.indexOf(':', first + 1);
  if (second < 0) return null;
  const org = workflowId.slice(first + 1, second);
  return org === '' ? null : org;
}

export function scopeOfContext(context: SerializationContext | undefined): string {
  const org = context?.workflowId ? orgOfWorkflowId(context.workflowId) : null;
  return org === null ? PLATFORM_SCOPE : orgScope(org);
}

export function orgScope(orgId: string): string {
  return `org:${orgId}`;
}

/** The org a scope belongs to; null for the platform scope. */
export function orgOfScope(scope: string): string | null {
  return scope.startsWith('org:') ? scope.slice('org:'.length) : null;
}
