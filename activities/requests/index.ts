import type Anthropic from '@anthropic-ai/sdk';
import type { Db } from '../../db/connection';
import {
  answeringRoles,
  appendRequestEvent,
  getNotification,
  getRequestRow,
  insertRequest,
  recordNotification,
  routeRequest,
  setRoute,
  updateRequest,
  userEmail,
} from '../../db/repositories/requests';
import type { EventAcceptor } from '../../workflows/events/entry-point';
import { ErrorType, permanentFailure } from '../../workflows/errors';
import type { AnswerSchema } from '../../workflows/requests/answer-schema';
import type {
  CreateRequest,
  CreateRequestInput,
  CreatedBy,
  RequestStatus,
  RequestType,
  Route,
} from '../../workflows/requests/contract';
import {
  MAX_TRIAGE_HOPS,
  callbackPayload,
  delegationEventType,
} from '../../workflows/requests/loop-defences';
import type { CreatedRequest, RequestsEntryPoint } from '../../workflows/requests/entry-point';
import type { Notifier } from './notifier';
import { readFreeText, type ReadResult } from './read-free-text';
import {
  completeDelegation,
  type CompleteDelegationInput,
  type CompleteDelegationResult,
} from './complete-delegation';

/** The form of a forwarded decision (gateway approval, analysis review). */
export const DECISION_FORM = {
  fields: [
    {
      name: 'decision',
      label: 'Decision',
      kind: 'enum',
      options: ['approve', 'reject'],
      required: true,
    },
    { name: 'note', label: 'Note', kind: 'text', maxLength: 4000, required: false },
  ],
};

/** The inbox record of a waiting gateway submission or analysis review. */
export function linkedRequestId(linkKind: string, workflowId: string): string {
  return `${linkKind}:${workflowId}`;
}

export interface RequestsDeps {
  db: Db;
  /** The requests domain's entry point (RequestsClient, injected by domains/requests-runtime.ts). */
  requests: RequestsEntryPoint;
  /** The events domain's entry point (EventsClient): delegation work orders and callbacks. */
  events: EventAcceptor;
  notifier: Notifier | null;
  anthropic: Anthropic | null;
  /** The fast tier's model (free-text reading). */
  model: string;
}

/** The requests domain's activities: the request's rows, routing, notices, reading, callback. */
export function createRequestsActivities(deps: RequestsDeps) {
  const { db } = deps;
  const notifyOnce = async (requestId: string, purpose: string) => {
    const row = await getRequestRow(db, requestId);
    if (!row?.assigneeUserId || !deps.notifier) return { sent: 0, refused: 0 };
    const email = await userEmail(db, row.assigneeUserId);
    let sent = 0;
    let refused = 0;
    for (const channel of deps.notifier.channels) {
      if (await getNotification(db, requestId, purpose, channel)) continue;
      const d = await deps.notifier.send(channel, {
        requestId: row.id,
        orgId: row.orgId,
        purpose: purpose,
        type: row.type,
        title: row.title,
        question: row.question,
        dueAt: row.dueAt.toISOString(),
        assigneeUserId: row.assigneeUserId,
        email,
      });
      await recordNotification(db, {
        requestId: requestId,
        purpose: purpose,
        channel,
        recipient: d.recipient,
        status: d.status,
        detail: d.detail,
        at: new Date(),
      });
      if (d.status === 'sent') sent += 1;
      else refused += 1;
    }
    return { sent, refused };
  };
  return {
    /** Stores the request, routes it and records `opened` with the route (idempotent). */
    async requestOpen(o: {
      request: CreateRequest & { requestId: string };
      workflowId: string;
      createdAtMs: number;
      dueAtMs: number;
      expiresAtMs: number;
    }): Promise<{ assigneeUserId: string | null; route: Route; detail: string }> {
      const r = o.request;
      const row = await insertRequest(db, {
        id: r.requestId,
        orgId: r.orgId,
        type: r.type,
        status: 'open',
        title: r.title,
        question: r.question,
        answerSchema: r.answerSchema,
        evidence: r.evidence,
        delegateAgentType: r.delegateAgentType ?? null,
        createdByRunId: r.createdBy.runId ?? null,
        createdByAgentType: r.createdBy.agentType ?? null,
        createdByWorkflowId: r.createdBy.workflowId ?? null,
        createdByUserId: r.createdBy.userId ?? null,
        callback: r.callback,
        workflowId: o.workflowId,
        dedupKey: r.dedupKey ?? null,
        hop: r.hop,
        createdAt: new Date(o.createdAtMs),
        dueAt: new Date(o.dueAtMs),
        expiresAt: new Date(o.expiresAtMs),
      });
      if (row.route)
        return {
          assigneeUserId: row.assigneeUserId,
          route: row.route as Route,
          detail: row.routeDetail ?? '',
        };
      const routed = await routeRequest(db, r.orgId, r.assigneeUserId);
      await setRoute(db, r.requestId, routed);
      await appendRequestEvent(db, {
        requestId: r.requestId,
        seq: 1,
        kind: 'opened',
        actor: r.createdBy.runId ?? r.createdBy.userId ?? r.createdBy.workflowId ?? null,
        detail: `${routed.route}: ${routed.detail}`,
        data: { route: routed.route, assigneeUserId: routed.assigneeUserId },
        at: new Date(o.createdAtMs),
      });
      return routed;
    },

    async requestAppendEvent(e: {
      requestId: string;
      seq: number;
      kind: string;
      actor: string | null;
      detail: string | null;
      data: unknown;
      atMs: number;
    }): Promise<void> {
      const { atMs, ...rest } = e;
      await appendRequestEvent(db, { ...rest, at: new Date(atMs) });
    },

    async requestSaveCounters(c: {
      requestId: string;
      remindersSent: number;
      reasks: number;
    }): Promise<void> {
      await updateRequest(db, c.requestId, { remindersSent: c.remindersSent, reasks: c.reasks });
    },

    async requestClose(c: {
      requestId: string;
      status: RequestStatus;
      answer: Record<string, unknown> | null;
      answeredBy: string | null;
      remindersSent: number;
      reasks: number;
      closedAtMs: number;
    }): Promise<void> {
      await updateRequest(db, c.requestId, {
        status: c.status,
        answer: c.answer,
        answeredBy: c.answeredBy,
        remindersSent: c.remindersSent,
        reasks: c.reasks,
        closedAt: new Date(c.closedAtMs),
      });
    },

    /**
     * A person may answer with a role in the org other than viewer; a delegation is answered
     * by its delegate agent (`agent:<type>`) or by such a person.
     */
    async requestAuthorizeAnswerer(a: {
      orgId: string;
      userId: string;
      delegateAgentType: string | null;
    }): Promise<void> {
      if (a.delegateAgentType && a.userId === `agent:${a.delegateAgentType}`) return;
      const roles = await answeringRoles(db, a.orgId, a.userId);
      if (!roles.some((r) => r !== 'viewer'))
        throw permanentFailure(
          ErrorType.AnswererNotAuthorized,
          roles.length === 0
            ? `${a.userId} holds no role in ${a.orgId}`
            : `${a.userId} is only a viewer in ${a.orgId}`,
        );
    },

    /** Free text → the form, strictly (rules first, then the small model when configured). */
    async requestReadFreeText(r: {
      requestId: string;
      attempt: number;
      type: string;
      title: string;
      question: string;
      evidence: unknown;
      answerSchema: AnswerSchema;
      text: string;
    }): Promise<ReadResult> {
      return readFreeText({ anthropic: deps.anthropic, model: deps.model }, r.text, {
        requestId: r.requestId,
        type: r.type,
        title: r.title,
        question: r.question,
        evidence: r.evidence,
        answerSchema: r.answerSchema,
      });
    },

    /** Sends the notice on every configured channel once (a row per request, purpose, channel). */
    async requestNotify(n: {
      requestId: string;
      purpose: string;
    }): Promise<{ sent: number; refused: number }> {
      return notifyOnce(n.requestId, n.purpose);
    },

    /** A gateway approval / analysis review starts waiting: its inbox record, routed, notified. */
    async requestOpenLinked(e: {
      linkKind: 'gateway_approval' | 'analysis_review';
      workflowId: string;
      key: string;
      orgId: string;
      type: RequestType;
      title: string;
      question: string;
      evidence: Record<string, unknown>;
      createdAtMs: number;
      dueAtMs: number;
      expiresAtMs: number;
      createdBy: { userId?: string; runId?: string; agentType?: string };
    }): Promise<{ requestId: string; route: Route }> {
      const id = linkedRequestId(e.linkKind, e.workflowId);
      const row = await insertRequest(db, {
        id,
        orgId: e.orgId,
        type: e.type,
        status: 'open',
        title: e.title,
        question: e.question,
        answerSchema: DECISION_FORM,
        evidence: e.evidence,
        createdByRunId: e.createdBy.runId ?? null,
        createdByAgentType: e.createdBy.agentType ?? null,
        createdByUserId: e.createdBy.userId ?? null,
        createdByWorkflowId: e.workflowId,
        callback: { eventType: null },
        workflowId: e.workflowId,
        linkKind: e.linkKind,
        linkWorkflowId: e.workflowId,
        linkKey: e.key,
        createdAt: new Date(e.createdAtMs),
        dueAt: new Date(e.dueAtMs),
        expiresAt: new Date(e.expiresAtMs),
      });
      if (row.status !== 'open') {
        // A plan revision re-opens the approval: the same inbox entry, open again.
        await updateRequest(db, id, {
          status: 'open',
          closedAt: null,
          dueAt: new Date(e.dueAtMs),
          expiresAt: new Date(e.expiresAtMs),
        });
      }
      let route = row.route as Route | null;
      if (!route) {
        const routed = await routeRequest(db, e.orgId, undefined);
        await setRoute(db, id, routed);
        await appendRequestEvent(db, {
          requestId: id,
          seq: 1,
          kind: 'opened',
          actor: e.workflowId,
          detail: `${routed.route}: ${routed.detail}`,
          data: { route: routed.route, assigneeUserId: routed.assigneeUserId },
          at: new Date(e.createdAtMs),
        });
        route = routed.route;
      }
      await notifyOnce(id, 'assigned').catch(() => undefined);
      return { requestId: id, route };
    },

    async requestRemindLinked(r: {
      linkKind: 'gateway_approval' | 'analysis_review';
      workflowId: string;
      reminderNumber: number;
      atMs: number;
    }): Promise<void> {
      const id = linkedRequestId(r.linkKind, r.workflowId);
      if (!(await getRequestRow(db, id))) return;
      await updateRequest(db, id, { remindersSent: r.reminderNumber });
      await appendRequestEvent(db, {
        requestId: id,
        seq: 100 + r.reminderNumber,
        kind: 'reminded',
        actor: null,
        detail: `reminder ${r.reminderNumber}`,
        data: null,
        at: new Date(r.atMs),
      });
      await notifyOnce(id, `reminder-${r.reminderNumber}`);
    },

    async requestCloseLinked(c: {
      linkKind: 'gateway_approval' | 'analysis_review';
      workflowId: string;
      status: 'completed' | 'expired' | 'cancelled';
      detail: string;
      by: string | null;
      atMs: number;
    }): Promise<void> {
      const id = linkedRequestId(c.linkKind, c.workflowId);
      if (!(await getRequestRow(db, id))) return;
      await updateRequest(db, id, {
        status: c.status,
        detail: c.detail,
        answeredBy: c.by,
        closedAt: new Date(c.atMs),
      });
      await appendRequestEvent(db, {
        requestId: id,
        seq: 1000,
        kind: c.status === 'completed' ? 'answered' : c.status,
        actor: c.by,
        detail: c.detail,
        data: null,
        at: new Date(c.atMs),
      });
    },

    /**
     * Creates a request for an agent run (ctx.request): the id comes from the run and its
     * call number, so a retried activity joins the request it already started.
     */
    async requestCreate(c: { input: CreateRequestInput }): Promise<CreatedRequest> {
      return deps.requests.createRequest(c.input);
    },

    /**
     * A delegate agent's run completed: close the delegation it worked for with the run's
     * answer when the entity it names exists in the org, else fail it (a person takes over).
     */
    async requestCompleteDelegation(c: CompleteDelegationInput): Promise<CompleteDelegationResult> {
      return completeDelegation({ db, requests: deps.requests }, c);
    },

    /** A delegation's work order: an event its delegate agent subscribes to (delegation.<type>). */
    async requestEmitDelegation(c: {
      requestId: string;
      orgId: string;
      delegateAgentType: string;
      hop: number;
      createdByRunId: string | null;
      evidence: Record<string, unknown>;
    }): Promise<{ eventId: string; status: string }> {
      const a = await deps.events.acceptEvent({
        orgId: c.orgId,
        type: delegationEventType(c.delegateAgentType),
        source: 'agent',
        payload: { delegationRequestId: c.requestId, evidence: c.evidence },
        ...(c.createdByRunId && c.hop >= 1
          ? {
              causation: {
                agentInstanceId: c.createdByRunId,
                hop: Math.min(c.hop, MAX_TRIAGE_HOPS),
              },
            }
          : {}),
      });
      return { eventId: a.eventId, status: a.status };
    },

    /** The callback event (request.completed): the creating agent's next run resumes from it. */
    async requestEmitCallback(c: {
      requestId: string;
      orgId: string;
      eventType: string;
      hop: number;
      type: string;
      createdBy: CreatedBy;
      answer: Record<string, unknown> | null;
      answeredBy: string | null;
    }): Promise<{ eventId: string; status: string }> {
      const a = await deps.events.acceptEvent({
        orgId: c.orgId,
        type: c.eventType,
        source: 'rule',
        payload: callbackPayload(c),
      });
      return { eventId: a.eventId, status: a.status };
    },
  };
}
export type RequestsActivities = ReturnType<typeof createRequestsActivities>;
