/**
 * A notice to the person a request is routed to (assigned, each reminder). A notice that
 * cannot be sent is logged and the request goes on: a broken channel never loses it.
 */
import { log } from '@temporalio/workflow';
import { messageOf, notify } from './activity-proxies';
import type { RequestRun } from './run-state';

export async function sendNotice(run: RequestRun, purpose: string): Promise<void> {
  const { requestId } = run.request;
  try {
    await notify.requestNotify({ requestId, purpose });
  } catch (err) {
    log.error('request notification failed', { requestId, purpose, error: messageOf(err) });
  }
}
