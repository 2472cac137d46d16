import type { AnswerAck, AnswerInput, CreateRequestInput, RequestView } from './contract';

/** An answer the request refused (type: InvalidAnswer, AnswererNotAuthorized, RequestNotOpen, ...). */
export class AnswerRefusedError extends Error {
  override readonly name = 'AnswerRefusedError';
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

export interface CreatedRequest {
  requestId: string;
  workflowId: string;
  /** An identical request already existed (same dedup key, open or within its window). */
  deduplicated: boolean;
}

/**
 * The requests domain's entry point as other activities call it: open a request, answer one,
 * close one as failed. client/requests-client.ts's RequestsClient is the implementation;
 * activities get one injected by the process composing them (domains/), so they never import
 * client/.
 */
export interface RequestsEntryPoint {
  createRequest(raw: CreateRequestInput, nowMs?: number): Promise<CreatedRequest>;
  answerRequest(raw: AnswerInput): Promise<AnswerAck>;
  failRequest(orgId: string, requestId: string, reason: string, by: string): Promise<RequestView>;
}
