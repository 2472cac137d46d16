import { createHash } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { loadAgentDefinitions } from '../../activities/agent-runs/agent-files';
import { READ_TOOLS } from '../../activities/agent-runs/tools/read-tools';
import { dryRunWrite } from '../../activities/gateway/evaluate';
import type { Db } from '../../db/connection';
import type { Principal } from '../../db/repositories/credentials';
import {
  TOOL_DEFINITIONS,
  filterTools,
  type ReadToolName,
  type ToolInput,
  type ToolName,
  type ToolOutput,
} from '../../workflows/agent-runs/tools';
import { gatewayWorkflowId } from '../../workflows/gateway.contract';
import { AnalysisClient } from '../analysis-client';
import { canonicalJson } from '../../workflows/canonical-json';
import { GatewayClient } from '../gateway-client';
import { accountNames } from '../../db/repositories/ledger';
import { accountIdsIn, describeWrite } from '../format/write-summary';

export type AgentPrincipal = Extract<Principal, { kind: 'agent' }>;

export interface McpDeps {
  db: Db;
  client: Client;
  taskQueue: string;
  /** The agents/ folder whose definitions hold each agent type's tool allow-list. */
  agentsDir?: string;
  /** How long analyze_document waits for the analysis to settle. */
  analysisSettleMs?: number;
}

/**
 * The tools an agent's key allows: the allow-list of its definition in agents/ (the same
 * config the runtime filters with), checked by the registry's own filter. An identity with no
 * definition gets no tools: a key alone never widens what an agent may do.
 */
export function allowedToolsOf(principal: AgentPrincipal, agentsDir?: string): ToolName[] {
  const def = loadAgentDefinitions(agentsDir).find(
    (d) => d.config.agent_type === principal.agentId,
  );
  if (!def) return [];
  return filterTools(def.config.allowed_tools).exposed;
}

const ok = (out: unknown): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(out) }],
  structuredContent: out as Record<string, unknown>,
});
const refused = (message: string): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: message }],
});
const digest = (v: unknown) =>
  createHash('sha256').update(canonicalJson(v)).digest('hex').slice(0, 32);

/**
 * submit over MCP: only within the key's write lanes, and only through the write gateway —
 * its dry run answers a refusal at once (with issue paths), the submission is the gateway's
 * own workflow. The idempotency key is the write's digest: the same write sent twice is one.
 */
async function submitWrite(
  deps: McpDeps,
  p: AgentPrincipal,
  input: ToolInput<'submit'>,
): Promise<ToolOutput<'submit'>> {
  const idempotencyKey = `mcp.${p.agentId.replace(/[^A-Za-z0-9._:-]/g, '_')}.${digest({ kind: input.kind, payload: input.payload, source: input.sourceDocumentId ?? null })}`;
  const submissionId = gatewayWorkflowId(p.orgId, idempotencyKey);
  if (!p.allowedWorkflows.includes(input.kind))
    return {
      submissionId,
      status: 'refused',
      detail: `agent ${p.agentId} has no write lane ${input.kind} (allowed: ${p.allowedWorkflows.join(', ') || 'none'})`,
    };
  const write = {
    orgId: p.orgId,
    idempotencyKey,
    submitter: {
      kind: 'agent' as const,
      agentType: p.agentId,
      instanceId: `mcp:${p.keyId}`,
      operatorUserId: p.operatorUserId,
      allowedWorkflows: p.allowedWorkflows,
    },
    ...(input.sourceDocumentId
      ? { source: { type: 'document' as const, id: input.sourceDocumentId } }
      : {}),
    kind: input.kind,
    payload: input.payload,
  };
  const dry = await dryRunWrite(deps.db, write);
  if (!dry.valid || !dry.lane)
    return {
      submissionId,
      status: 'refused',
      detail: dry.refusal ? `${dry.refusal.type}: ${dry.refusal.message}` : 'refused',
    };
  await new GatewayClient(deps.client, deps.db, deps.taskQueue).submit(write);
  // What the write will do, in the words an approver reads (amounts formatted, accounts named).
  const names = await accountNames(deps.db, p.orgId, accountIdsIn(dry.entries, dry.risk));
  return {
    submissionId,
    status: 'started',
    detail: describeWrite({ kind: input.kind, risk: dry.risk, entries: dry.entries }, names),
  };
}

async function analyzeDocument(
  deps: McpDeps,
  p: AgentPrincipal,
  input: ToolInput<'analyze_document'>,
): Promise<ToolOutput<'analyze_document'>> {
  const analysis = new AnalysisClient(deps.client, deps.taskQueue);
  const requestId = `mcp-${digest({ agent: p.agentId, input })}`;
  await analysis.start({ requestId, orgId: p.orgId, requestedBy: `agent:${p.agentId}`, ...input });
  const view = await analysis.settle(p.orgId, requestId, deps.analysisSettleMs ?? 9 * 60_000);
  const outcome = view.status === 'completed' ? (view.result?.outcome ?? 'completed') : view.status;
  return {
    requestId,
    outcome,
    answer: view.result?.answer?.text ?? view.proposedAnswer?.text ?? null,
  };
}

/**
 * One MCP server for one authenticated agent: exactly its allowed tools are registered (an
 * unlisted tool does not exist for it), each with the registry's zod schema as its input
 * schema, run in the agent's org.
 */
export function buildAgentMcpServer(
  deps: McpDeps,
  principal: AgentPrincipal,
  opts: {
    /** A long-lived session (stdio) re-checks its key on every call: revoked means stopped. */
    stillAuthenticated?: () => Promise<boolean>;
  } = {},
): McpServer {
  const server = new McpServer(
    { name: 'countersign', version: '0.1.0' },
    {
      instructions: `Finance tools of org ${principal.orgId} for agent ${principal.agentId}. Writes go through the write gateway (validated, risk-scored, approved when they must be); allowed write kinds: ${principal.allowedWorkflows.join(', ') || 'none'}.`,
    },
  );
  for (const name of allowedToolsOf(principal, deps.agentsDir)) {
    const def = TOOL_DEFINITIONS[name];
    server.registerTool(
      name,
      { description: def.description, inputSchema: def.input },
      async (args: unknown): Promise<CallToolResult> => {
        try {
          if (opts.stillAuthenticated && !(await opts.stillAuthenticated()))
            return refused('The key no longer authenticates (revoked, expired or agent disabled)');
          if (name === 'submit') {
            const out = await submitWrite(
              deps,
              principal,
              TOOL_DEFINITIONS.submit.input.parse(args),
            );
            return out.status === 'refused'
              ? { ...refused(out.detail ?? 'refused'), structuredContent: out }
              : {
                  // The text an agent or a person reads; the structured result for programs.
                  content: [
                    { type: 'text', text: `Submitted ${out.submissionId}\n${out.detail ?? ''}` },
                  ],
                  structuredContent: out,
                };
          }
          if (name === 'analyze_document')
            return ok(
              await analyzeDocument(
                deps,
                principal,
                TOOL_DEFINITIONS.analyze_document.input.parse(args),
              ),
            );
          const read = name as ReadToolName;
          const impl = READ_TOOLS[read] as (
            db: Db,
            orgId: string,
            input: unknown,
          ) => Promise<unknown>;
          return ok(await impl(deps.db, principal.orgId, TOOL_DEFINITIONS[read].input.parse(args)));
        } catch (err) {
          return refused(err instanceof Error ? `${err.name}: ${err.message}` : String(err));
        }
      },
    );
  }
  return server;
}
