import { ACTIONS, AGENT_ACTIONS, type Action, type Role } from '../workflows/roles';
import type { Caller } from './auth';
import { HttpError } from './http-error';

/**
 * The API's checks of the roles table (workflows/roles.ts): an agent key takes only
 * AGENT_ACTIONS and never decides; a person takes what a role they hold allows.
 */
const DECISIONS: readonly Action[] = ['approve_write', 'review_analysis', 'answer_request'];

export function mayDo(caller: Caller, action: Action): boolean {
  if (caller.kind === 'agent') return AGENT_ACTIONS.includes(action);
  const allowed: readonly Role[] = ACTIONS[action];
  return caller.roles.some((r) => allowed.includes(r));
}

export function requireAction(caller: Caller, action: Action): void {
  if (mayDo(caller, action)) return;
  if (caller.kind === 'agent')
    throw new HttpError(
      403,
      DECISIONS.includes(action) ? 'AgentCannotDecide' : 'ActionNotPermitted',
      DECISIONS.includes(action)
        ? 'Approvals, reviews and answers are made by people'
        : `Agent ${caller.agentId} may not ${action.replace('_', ' ')}`,
    );
  throw new HttpError(
    403,
    'ActionNotPermitted',
    `User ${caller.userId} (${caller.roles.join(', ')}) may not ${action.replace('_', ' ')} in org ${caller.orgId}; it takes one of: ${ACTIONS[action].join(', ')}`,
  );
}
