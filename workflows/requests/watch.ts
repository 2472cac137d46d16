import { proxyActivities } from '@temporalio/workflow';

/** The watch's activities (activities/requests/watch.ts). */
export interface WatchActivities {
  requestsWatchOrgs(): Promise<string[]>;
  requestsWatchOrg(orgId: string): Promise<WatchOrgReport>;
}

export interface WatchOrgReport {
  orgId: string;
  /** Verification requests opened for runs whose delegation's callback never came. */
  reescalated: string[];
  /** Open delegations whose delegate forgot to close them: completed (entity exists) or failed. */
  closed: { requestId: string; status: 'completed' | 'failed'; entityId: string | null }[];
}

export interface WatchReport {
  orgs: number;
  reescalated: number;
  closed: number;
  reports: WatchOrgReport[];
}

export const DELEGATION_WATCH_WORKFLOW = 'delegationWatchWorkflow';

const { requestsWatchOrgs, requestsWatchOrg } = proxyActivities<WatchActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', maximumAttempts: 5 },
});

/**
 * One pass of the delegation watch (issue 10's loop defences), fired by a Temporal Schedule
 * every few minutes: in every org, a run whose delegation's callback never came is
 * re-escalated to a person exactly once, and a delegation its delegate forgot to close is
 * completed only on an entity that really exists, otherwise failed. Both scans are idempotent
 * activities, one per org, so a retried or overlapping pass changes nothing twice.
 */
export async function delegationWatchWorkflow(): Promise<WatchReport> {
  const orgs = await requestsWatchOrgs();
  const reports: WatchOrgReport[] = [];
  for (const orgId of orgs) reports.push(await requestsWatchOrg(orgId));
  return {
    orgs: orgs.length,
    reescalated: reports.reduce((n, r) => n + r.reescalated.length, 0),
    closed: reports.reduce((n, r) => n + r.closed.length, 0),
    reports,
  };
}
