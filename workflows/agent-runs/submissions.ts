// The run's writes: the submit tool dry-runs a write at the gateway and starts its submission
// (the gateway's own workflow, which outlives the run); after the work, the run waits for the
// gateway to decide each one and fails when any is not applied.
import {
  ParentClosePolicy,
  log as wfLog,
  startChild,
  type ChildWorkflowHandle,
} from '@temporalio/workflow';
import { CsWriteKind, GATEWAY_WORKFLOW, gatewayWorkflowId } from '../gateway.contract';
import type { GatewayResult } from '../gateway.contract';
import type { gatewayWorkflow } from '../gateway';
import { taskQueueOf } from '../domain-routing';
import { CsOrg, CsState } from '../search-attributes';
import { book, toolActivities } from './activity-proxies';
import { finish, logProgress, transition } from './bookkeeping';
import type { AgentRunResult, SubmissionLink } from './contract';
import { messageOf } from './run-errors';
import type { AgentRun } from './run-state';
import { TOOL_DEFINITIONS } from './tools';

/** The submit tool: the gateway's refusal (with issue paths), or the started submission. */
export async function submitWrite(run: AgentRun, raw: unknown) {
  const { runId, orgId, agent, trigger, limits } = run;
  const w = TOOL_DEFINITIONS.submit.input.parse(raw);
  const idempotencyKey = `${runId.replace(/[^A-Za-z0-9._:-]/g, '_')}.w${++run.writeCalls}`;
  const submissionId = gatewayWorkflowId(orgId, idempotencyKey);
  if (!limits.operatorUserId)
    return {
      submissionId,
      status: 'refused' as const,
      detail: `org ${orgId} has no agent operator configured`,
    };
  const write = {
    orgId,
    idempotencyKey,
    submitter: {
      kind: 'agent' as const,
      agentType: agent.agentType,
      instanceId: runId,
      operatorUserId: limits.operatorUserId,
      allowedWorkflows: agent.allowedWorkflows,
    },
    source: w.sourceDocumentId
      ? { type: 'document' as const, id: w.sourceDocumentId }
      : { type: 'event' as const, id: trigger.eventId },
    kind: w.kind,
    payload: w.payload,
  };
  // The dry run answers the agent at once (refusal with issue paths, or the lane); the
  // submission itself is the gateway's own workflow, which outlives this run.
  const dry = await toolActivities.agentDryRunWrite({ write });
  if (!dry.ok) {
    await logProgress(run, `write ${w.kind} refused by the gateway`, { detail: dry.detail });
    return {
      submissionId,
      status: 'refused' as const,
      detail: dry.detail,
      ...(dry.issues ? { issues: dry.issues } : {}),
    };
  }
  let child: ChildWorkflowHandle<typeof gatewayWorkflow>;
  try {
    child = await startChild<typeof gatewayWorkflow>(GATEWAY_WORKFLOW, {
      workflowId: submissionId,
      taskQueue: taskQueueOf('gateway'),
      args: [write],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      typedSearchAttributes: [
        { key: CsOrg, value: orgId },
        { key: CsWriteKind, value: w.kind },
        { key: CsState, value: 'evaluating' },
      ],
    });
  } catch (err) {
    return { submissionId, status: 'refused' as const, detail: messageOf(err) };
  }
  const link: SubmissionLink = { submissionId, kind: w.kind, outcome: null };
  await book.agentLinkSubmission({
    orgId,
    runId,
    submissionId,
    kind: w.kind,
    outcome: null,
    atMs: Date.now(),
  });
  const done = child.result().then(
    (r: GatewayResult) => {
      link.outcome = r.outcome;
    },
    (err: unknown) => {
      link.outcome = 'refused';
      wfLog.warn('submission failed', { submissionId, error: messageOf(err) });
    },
  );
  run.submissions.push({ link, lane: dry.lane, done });
  await logProgress(run, `submitted ${w.kind} (${dry.lane} lane)`, { submissionId });
  return {
    submissionId,
    status: 'started' as const,
    detail: `${dry.lane} lane`,
    ...(dry.splitOut ? { splitOut: dry.splitOut } : {}),
  };
}

/**
 * After the work: waits (as waiting_approval when any write is in an approval lane) for the
 * gateway to decide every submission and stores each outcome. Null when all were applied (or
 * there were none); else the run's finished, rejected result.
 */
export async function awaitGatewayDecisions(
  run: AgentRun,
  output: { summary: string; data: unknown },
): Promise<AgentRunResult | null> {
  const pending = run.submissions;
  if (pending.length > 0) {
    const waiting = pending.filter((p) => p.lane !== 'low');
    if (waiting.length > 0)
      await transition(run, 'waiting_approval', `${waiting.length} write(s) in an approval lane`);
    await Promise.all(pending.map((p) => p.done));
    for (const p of pending)
      await book.agentLinkSubmission({
        orgId: run.orgId,
        runId: run.runId,
        submissionId: p.link.submissionId,
        kind: p.link.kind,
        outcome: p.link.outcome,
        atMs: Date.now(),
      });
    const notApplied = pending.filter((p) => p.link.outcome !== 'applied');
    if (notApplied.length > 0)
      return await finish(
        run,
        'failed',
        'rejected',
        `write(s) not applied: ${notApplied.map((p) => `${p.link.kind} ${p.link.outcome}`).join(', ')}`,
        output,
        false,
      );
  }
  return null;
}
