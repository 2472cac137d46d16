import type { AnalysisRequestInput, AnalysisStateView } from '../analysis.contract';

/**
 * The analysis domain's entry point as agent runs call it (the analyze_document tool): start an
 * analysis and wait until it settles. client/analysis-client.ts's AnalysisClient is the
 * implementation; activities get one injected by the process composing them (domains/), so
 * they never import client/.
 */
export interface AnalysisEntryPoint {
  start(input: AnalysisRequestInput): Promise<{ workflowId: string; started: boolean }>;
  settle(orgId: string, requestId: string, timeoutMs?: number): Promise<AnalysisStateView>;
}
