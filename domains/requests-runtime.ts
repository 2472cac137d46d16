import type Anthropic from '@anthropic-ai/sdk';
import { anthropicFor } from './anthropic';
import type { Client } from '@temporalio/client';
import type { AppConfig } from '../config/env';
import type { Db } from '../db/connection';
import { loadPriceTable } from '../activities/agent-runs/pricing';
import { createRequestsActivities } from '../activities/requests';
import { createNotifier, type Notifier } from '../activities/requests/notifier';
import { createWatchActivities } from '../activities/requests/watch';
import { RequestsClient } from '../client/requests-client';
import { EventsClient } from '../client/events-client';

export interface RequestsRuntimeOptions {
  /** Overrides the notifier built from NOTIFY_* (tests pass one aimed at local servers). */
  notifier?: Notifier | null;
  /** Overrides the Anthropic client built from ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL. */
  anthropic?: Anthropic | null;
}

/** The requests domain's registration: its activities over the worker's connection. */
export function registerRequests(deps: {
  cfg: AppConfig;
  db: Db;
  client: Client;
  taskQueue: string;
  options?: RequestsRuntimeOptions;
}): Record<string, (...args: never[]) => unknown> {
  const o = deps.options ?? {};
  const notifier =
    o.notifier !== undefined
      ? o.notifier
      : deps.cfg.NOTIFY_SMTP_URL || deps.cfg.NOTIFY_WEBHOOK_URL
        ? createNotifier({
            smtpUrl: deps.cfg.NOTIFY_SMTP_URL,
            from: deps.cfg.NOTIFY_FROM,
            webhookUrl: deps.cfg.NOTIFY_WEBHOOK_URL,
            webhookSecret: deps.cfg.NOTIFY_WEBHOOK_SECRET,
          })
        : null;
  const anthropic = anthropicFor(deps.cfg, o.anthropic);
  // The domains' entry points over the worker's client (its connection, and the payload codec
  // every process uses).
  const requests = new RequestsClient(deps.client, deps.db, { taskQueue: deps.taskQueue });
  return {
    ...createRequestsActivities({
      db: deps.db,
      requests,
      events: new EventsClient(deps.client, deps.db, { taskQueue: deps.taskQueue }),
      notifier,
      anthropic,
      model: loadPriceTable().fast.model,
    }),
    ...createWatchActivities({ db: deps.db, requests }),
  };
}
