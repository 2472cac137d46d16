import type { AgentHandler } from './context';
import { handle as documentAnalyst } from '../../agents/document_analyst/handler';
import { handle as bankTransactionProcessor } from '../../agents/bank_transaction_processor/handler';
import { handle as billProcessor } from '../../agents/bill_processor/handler';
import { handle as masterData } from '../../agents/master_data/handler';
import { handle as triage } from '../../agents/triage/handler';
import { handle as reconciliation } from '../../agents/reconciliation/handler';

/**
 * Code and hybrid handlers by agent type. They are bundled with the workflows (they run in
 * the workflow sandbox), so each is imported here; the loader refuses a code or hybrid agent
 * whose handler is missing from this map.
 */
export const AGENT_HANDLERS: Readonly<Record<string, AgentHandler>> = {
  document_analyst: documentAnalyst,
  bank_transaction_processor: bankTransactionProcessor,
  bill_processor: billProcessor,
  master_data: masterData,
  triage,
  reconciliation,
};
