/* eslint-disable @typescript-eslint/no-require-imports -- lazy on purpose, see below */
import type { AgentHandler } from './context';
import type * as DocumentAnalyst from '../../agents/document_analyst/handler';
import type * as BankTransactionProcessor from '../../agents/bank_transaction_processor/handler';
import type * as BillProcessor from '../../agents/bill_processor/handler';
import type * as MasterData from '../../agents/master_data/handler';
import type * as Triage from '../../agents/triage/handler';
import type * as Reconciliation from '../../agents/reconciliation/handler';

/**
 * Code and hybrid handlers by agent type. They are bundled with the workflows (they run in
 * the workflow sandbox); the loader refuses a code or hybrid agent whose handler is missing
 * from this map. Each handler's module is required when a run of that agent calls it: a run
 * evaluates its modules in its own cache (workflows/index.ts), and one agent's run has no use
 * for the other agents' code.
 */
export const AGENT_HANDLERS: Readonly<Record<string, AgentHandler>> = {
  document_analyst: (ctx) =>
    (require('../../agents/document_analyst/handler') as typeof DocumentAnalyst).handle(ctx),
  bank_transaction_processor: (ctx) =>
    (
      require('../../agents/bank_transaction_processor/handler') as typeof BankTransactionProcessor
    ).handle(ctx),
  bill_processor: (ctx) =>
    (require('../../agents/bill_processor/handler') as typeof BillProcessor).handle(ctx),
  master_data: (ctx) =>
    (require('../../agents/master_data/handler') as typeof MasterData).handle(ctx),
  triage: (ctx) => (require('../../agents/triage/handler') as typeof Triage).handle(ctx),
  reconciliation: (ctx) =>
    (require('../../agents/reconciliation/handler') as typeof Reconciliation).handle(ctx),
};
