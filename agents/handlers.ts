/* eslint-disable @typescript-eslint/no-require-imports -- lazy on purpose, see below */
import type { AgentHandler } from '../workflows/agent-runs/context';
import type * as DocumentAnalyst from './document_analyst/handler';
import type * as BankTransactionProcessor from './bank_transaction_processor/handler';
import type * as BillProcessor from './bill_processor/handler';
import type * as MasterData from './master_data/handler';
import type * as Triage from './triage/handler';
import type * as Reconciliation from './reconciliation/handler';

/**
 * Code and hybrid handlers by agent type. They are bundled with the workflows (they run in
 * the workflow sandbox): the bundle's entry (workflow-bundle.ts) hands them to the agent run
 * workflow (workflows/agent-runs/handlers.ts), and the loader refuses a code or hybrid agent
 * whose handler is missing from this map. Each handler's module is required when a run of that
 * agent calls it: a run evaluates its modules in its own cache (workflows/index.ts), and one
 * agent's run has no use for the other agents' code.
 */
export const AGENT_HANDLERS: Readonly<Record<string, AgentHandler>> = {
  document_analyst: (ctx) =>
    (require('./document_analyst/handler') as typeof DocumentAnalyst).handle(ctx),
  bank_transaction_processor: (ctx) =>
    (require('./bank_transaction_processor/handler') as typeof BankTransactionProcessor).handle(
      ctx,
    ),
  bill_processor: (ctx) =>
    (require('./bill_processor/handler') as typeof BillProcessor).handle(ctx),
  master_data: (ctx) => (require('./master_data/handler') as typeof MasterData).handle(ctx),
  triage: (ctx) => (require('./triage/handler') as typeof Triage).handle(ctx),
  reconciliation: (ctx) =>
    (require('./reconciliation/handler') as typeof Reconciliation).handle(ctx),
};
