import type { Db } from '../../db/connection';
import { heartbeating } from '../heartbeating';
import { DEFAULT_DB_RETRY, type DbRetrySettings } from '../../workflows/gateway.contract';
import { insertAcceptedEvent, recordEventTransition } from '../../db/repositories/events';
import { enabledSubscribers, getOrgAgentSettings } from '../../db/repositories/agent-runs';
import type { AgentSnapshot, RunLimits } from '../../workflows/agent-runs/contract';
import type { EventEnvelope, EventState } from '../../workflows/events/contract';
import { completedCallbackRuns } from '../../db/repositories/requests';
import {
  CALLBACK_RUN_LIMIT,
  CALLBACK_WINDOW_MS,
  callbackLimitReached,
} from '../../workflows/requests/loop-defences';

export interface EventsDeps {
  db: Db;
  /** The loaded agent definitions (files are the source of truth for what an agent is). */
  agents: ReadonlyMap<string, AgentSnapshot>;
  defaultOrgMaxConcurrentRuns: number;
  globalLlmConcurrency: number;
  llmAvailable: boolean;
  /** Completed callback-triggered runs per org per window before callbacks are blocked. */
  callbackRunLimit?: number;
  /** The outage budget of the event's database steps: the gateway's (DB_RETRY_BUDGET_MS). */
  retry?: DbRetrySettings;
}

/** The events domain's activities: the event's rows, and who it is dispatched to. */
export function createEventsActivities(deps: EventsDeps) {
  const { db } = deps;
  return {
    /** The worker's outage budget, read by an event only once a database step has failed. */
    async eventRetrySettings(): Promise<DbRetrySettings> {
      return deps.retry ?? DEFAULT_DB_RETRY;
    },

    /** Stores the accepted event (pending, at its acceptance time); idempotent on its id. */
    async eventRecordAccepted(e: {
      eventId: string;
      envelope: EventEnvelope;
      dedupKey: string;
      workflowId: string;
      acceptedAtMs: number;
    }): Promise<void> {
      await heartbeating(() =>
        insertAcceptedEvent(db, {
          id: e.eventId,
          orgId: e.envelope.orgId,
          type: e.envelope.type,
          source: e.envelope.source,
          payload: e.envelope.payload,
          dedupKey: e.dedupKey,
          workflowId: e.workflowId,
          causation: e.envelope.causation ?? null,
          acceptedAt: new Date(e.acceptedAtMs),
        }),
      );
    },

    /** Records one state of the event with its time. */
    async eventTransition(t: {
      orgId: string;
      eventId: string;
      seq: number;
      state: EventState;
      detail: string | null;
      atMs: number;
      attempts: number;
    }): Promise<void> {
      const { atMs, ...rest } = t;
      await heartbeating(() => recordEventTransition(db, { ...rest, at: new Date(atMs) }));
    },

    /**
     * Enabled agents subscribed to the type (the database holds the operators' enabled flag,
     * the files the definition), with the org's limits. An agent enabled in the database
     * but no longer in the files is not dispatched.
     */
    async eventPlanDispatch(q: {
      orgId: string;
      type: string;
      /** The event is a request's callback (the loop breaker counts and may block it). */
      callback?: boolean;
      /** A callback's creating agent type: the only agent it resumes. */
      callbackFor?: string | null;
    }): Promise<{ agents: AgentSnapshot[]; limits: RunLimits; blocked?: string }> {
      return heartbeating(() => planDispatch(q));
    },
  };

  async function planDispatch(q: {
    orgId: string;
    type: string;
    callback?: boolean;
    callbackFor?: string | null;
  }): Promise<{ agents: AgentSnapshot[]; limits: RunLimits; blocked?: string }> {
    if (q.callback) {
      const n = await completedCallbackRuns(
        deps.db,
        q.orgId,
        new Date(Date.now() - CALLBACK_WINDOW_MS),
      );
      const limit = deps.callbackRunLimit ?? CALLBACK_RUN_LIMIT;
      if (callbackLimitReached(n, limit))
        return {
          agents: [],
          limits: {
            orgMaxConcurrentRuns: deps.defaultOrgMaxConcurrentRuns,
            globalLlmConcurrency: deps.globalLlmConcurrency,
            llmAvailable: deps.llmAvailable,
            operatorUserId: null,
          },
          blocked: `loop breaker: ${n} completed callback-triggered runs in ${q.orgId} in the last ${CALLBACK_WINDOW_MS / 60_000} minutes (limit ${limit})`,
        };
    }
    const subscribed = await enabledSubscribers(db, q.type);
    const agents = subscribed.flatMap((t) => {
      if (q.callbackFor && t !== q.callbackFor) return [];
      const a = deps.agents.get(t);
      return a ? [a] : [];
    });
    const settings = await getOrgAgentSettings(db, q.orgId);
    return {
      agents,
      limits: {
        orgMaxConcurrentRuns: settings?.maxConcurrentRuns ?? deps.defaultOrgMaxConcurrentRuns,
        globalLlmConcurrency: deps.globalLlmConcurrency,
        llmAvailable: deps.llmAvailable,
        operatorUserId: settings?.operatorUserId ?? null,
      },
    };
  }
}
export type EventsActivities = ReturnType<typeof createEventsActivities>;
