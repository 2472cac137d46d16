import type { Domain } from '../workflows/task-queue';
import type { DomainModule } from './domain';
import { analysisDomain } from './analysis';
import { gatewayDomain } from './gateway';
import { eventsDomain } from './events';
import { agentsDomain } from './agents';
import { requestsDomain } from './requests';

/** Every domain a worker can serve, by name (WORKER_DOMAINS picks among them). */
export const DOMAIN_MODULES: Readonly<Record<Domain, DomainModule>> = {
  analysis: analysisDomain,
  gateway: gatewayDomain,
  events: eventsDomain,
  agents: agentsDomain,
  requests: requestsDomain,
};
