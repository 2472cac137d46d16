import { createHash } from 'node:crypto';
import type { Db } from '../../db/connection';
import { getEvent } from '../../db/repositories/events';
import { listOrganizationIds } from '../../db/repositories/organizations';
import type { EventEnvelopeInput } from '../../workflows/events/contract';
import type { Accepted, EventAcceptor } from '../../workflows/events/entry-point';
import type { Effect } from '../../workflows/gateway.contract';

/** A deterministic event id for an emission that may be retried: the same key, the same id. */
export function emittedEventId(key: string): string {
  return `evt_${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
}

/**
 * Accepts an event at most once for its key, whatever the retries: an event row with the
 * derived id means an earlier attempt's event ran (its first step writes the row); a running
 * one is recognised by the client from its memo. Only then is the event accepted anew.
 */
async function acceptOnce(
  deps: { db: Db; events: EventAcceptor },
  key: string,
  envelope: EventEnvelopeInput,
  once: boolean,
): Promise<Accepted> {
  const eventId = emittedEventId(key);
  const existing = await getEvent(deps.db, envelope.orgId, eventId);
  if (existing)
    return {
      eventId,
      workflowId: existing.workflowId,
      status: existing.state === 'duplicate' ? 'duplicate' : 'accepted',
      duplicateOf: existing.duplicateOf ?? null,
    };
  return deps.events.acceptEvent(envelope, { eventId, once });
}

export interface WriteApplied {
  orgId: string;
  submissionId: string;
  kind: string;
  effects: Effect[];
  entryIds: string[];
}

/**
 * The events emitted by the platform itself: schedule firings, applied writes (downstream
 * rules) and agents' own events. Each is keyed so a retried activity accepts it once.
 */
export function createEventEmitActivities(deps: { db: Db; events: EventAcceptor }) {
  return {
    /** One schedule firing: the event for each target org (every org when none are named). */
    async eventAcceptScheduled(f: {
      firingId: string;
      agentType: string;
      scheduleId: string;
      eventType: string;
      payload: Record<string, unknown>;
      orgs: string[] | null;
    }): Promise<{ orgId: string; eventId: string; status: string }[]> {
      const orgs = f.orgs ?? (await listOrganizationIds(deps.db));
      const out: { orgId: string; eventId: string; status: string }[] = [];
      for (const orgId of orgs) {
        const a = await acceptOnce(
          deps,
          `schedule|${f.firingId}|${orgId}`,
          {
            orgId,
            type: f.eventType,
            source: 'schedule',
            payload: {
              ...f.payload,
              schedule: { agentType: f.agentType, id: f.scheduleId, firing: f.firingId },
            },
          },
          true,
        );
        out.push({ orgId, eventId: a.eventId, status: a.status });
      }
      return out;
    },

    /** An event an agent run emits (its hop already checked against the cap by the run). */
    async agentEmitEvent(e: {
      runId: string;
      callSeq: number;
      orgId: string;
      type: string;
      payload: Record<string, unknown>;
      hop: number;
    }): Promise<{ eventId: string; status: 'accepted' | 'duplicate' }> {
      const a = await acceptOnce(
        deps,
        `agent|${e.runId}|${e.callSeq}`,
        {
          orgId: e.orgId,
          type: e.type,
          source: 'agent',
          payload: e.payload,
          causation: { agentInstanceId: e.runId, hop: e.hop },
        },
        false,
      );
      return { eventId: a.eventId, status: a.status };
    },
  };
}
export type EventEmitActivities = ReturnType<typeof createEventEmitActivities>;

/**
 * The `write.applied` event of one applied gateway write: its id derives from the submission
 * (a retried apply names the same event) and its payload names the kind, the submission and
 * the entities it touched. The apply transaction writes it to the outbox (db/schema/event-outbox.ts).
 */
export function writeAppliedEvent(w: WriteApplied): {
  eventId: string;
  envelope: EventEnvelopeInput & { payload: Record<string, unknown> };
} {
  return {
    eventId: emittedEventId(`write.applied|${w.submissionId}`),
    envelope: {
      orgId: w.orgId,
      type: 'write.applied',
      source: 'rule',
      payload: {
        submissionId: w.submissionId,
        kind: w.kind,
        entryIds: w.entryIds,
        entities: w.effects.map((e) => ({ type: e.entityType, id: e.entityId, action: e.action })),
      },
    },
  };
}

/**
 * `write.applied`: one event per applied gateway write, with its kind, submission and the
 * entities it touched. Its id and workflow id derive from the submission and it can never
 * start twice (reuse policy REJECT_DUPLICATE), so a retried apply announces it exactly once.
 */
export function announceWriteApplied(
  deps: { db: Db; events: EventAcceptor },
  w: WriteApplied,
): Promise<Accepted> {
  return acceptOnce(deps, `write.applied|${w.submissionId}`, writeAppliedEvent(w).envelope, true);
}
