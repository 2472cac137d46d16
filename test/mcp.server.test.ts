import { join } from 'node:path';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Database } from '../db/connection';
import { issueApiKey, revokeApiKey, upsertAgentIdentity } from '../db/repositories/credentials';
import { GatewayClient } from '../client/gateway-client';
import { CsRiskLane } from '../workflows/gateway.contract';
import { startMcpHttpServer } from '../client/mcp/http-server';
import { createTestDatabase } from './support/database';
import { ORG, seedOrgs } from './support/fixtures';
import { agentsDirWith, startRuntimeWorker, type RuntimeWorker } from './agent-runs.fixtures';

/**
 * The tool registry over MCP, seen by an outside agent through the SDK's own client on both
 * transports: it lists exactly its allow-list, an unlisted tool and a write outside its lanes
 * are refused, and a write it may make goes through the write gateway (refused there when
 * invalid, a gateway workflow when valid).
 */
const AGENT = 'outside_bookkeeper';
const ALLOWED_TOOLS = ['master_data_search', 'submit'];

let database: Database;
let rt: RuntimeWorker;
let agents: { dir: string; cleanup(): void };
let http: Awaited<ReturnType<typeof startMcpHttpServer>>;
let agentKey = '';
let agentKeyId = '';
let userKey = '';

type ToolResult = {
  isError?: boolean;
  content?: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
};
const textOf = (r: ToolResult) => (r.content ?? []).map((c) => c.text ?? '').join('\n');

/** A tool call's result, or the protocol error the client raised, as a refused result. */
async function call(client: McpClient, name: string, args: Record<string, unknown>) {
  return (await client.callTool({ name, arguments: args }).catch((e: Error) => ({
    isError: true,
    content: [{ type: 'text', text: e.message }],
  }))) as ToolResult;
}

async function httpClient(key: string): Promise<McpClient> {
  const client = new McpClient({ name: 'outside-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(http.url), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

beforeAll(async () => {
  database = await createTestDatabase();
  await seedOrgs(database.db);
  agents = agentsDirWith({
    [AGENT]: {
      config: {
        agent_type: AGENT,
        model_tier: 'fast',
        execution_mode: 'llm',
        max_concurrent_runs: 1,
        timeout_minutes: 5,
        allowed_workflows: ['vendor.create'],
        allowed_tools: ALLOWED_TOOLS,
        trigger_events: ['mcp.test_requested'],
        budgets: { per_run_usd: '0.10' },
      },
      prompt: 'An outside agent keeping vendors.',
    },
  });
  rt = await startRuntimeWorker(database, { agentRuntime: { agentsDir: agents.dir } });
  // As `countersign agents register --agent outside_bookkeeper --operator arnold --allow vendor.create`.
  await upsertAgentIdentity(database.db, {
    orgId: ORG,
    agentId: AGENT,
    operatorUserId: 'arnold',
    allowedWorkflows: ['vendor.create'],
    by: 'test',
  });
  const issued = await issueApiKey(
    database.db,
    { kind: 'agent', orgId: ORG, agentId: AGENT },
    { issuedBy: 'test', orgId: ORG },
  );
  agentKey = issued.key;
  agentKeyId = issued.keyId;
  userKey = (
    await issueApiKey(
      database.db,
      { kind: 'user', userId: 'arnold' },
      { issuedBy: 'test', orgId: ORG },
    )
  ).key;
  http = await startMcpHttpServer(
    { db: database.db, client: rt.client, taskQueue: rt.taskQueue, agentsDir: agents.dir },
    { port: 0 },
  );
});
afterAll(async () => {
  await http?.close();
  await rt?.stop();
  await database?.close();
  agents?.cleanup();
});

describe('MCP over streamable HTTP', () => {
  it('refuses a request without a key (401) and a person’s key (403)', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const none = await fetch(http.url, { method: 'POST', headers, body });
    expect(none.status).toBe(401);
    const person = await fetch(http.url, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${userKey}` },
      body,
    });
    expect(person.status).toBe(403);
    expect(((await person.json()) as { detail: string }).detail).toMatch(/MCP serves agents/);
  });

  it('lists exactly the agent’s allow-list and refuses an unlisted tool', async () => {
    const client = await httpClient(agentKey);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(ALLOWED_TOOLS);
      const submit = tools.find((t) => t.name === 'submit');
      expect(submit?.inputSchema.required).toEqual(['kind', 'payload']);
      const r = await call(client, 'trial_balance', {});
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/trial_balance not found/);
    } finally {
      await client.close();
    }
  });

  it('refuses a write outside the key’s lanes, lets the gateway refuse an invalid one, and starts a valid one as a gateway workflow', async () => {
    const client = await httpClient(agentKey);
    try {
      const lane = await call(client, 'submit', { kind: 'journal.post', payload: {} });
      expect(lane.isError).toBe(true);
      expect(lane.structuredContent).toMatchObject({
        status: 'refused',
        detail: `agent ${AGENT} has no write lane journal.post (allowed: vendor.create)`,
      });

      const invalid = await call(client, 'submit', {
        kind: 'vendor.create',
        payload: { email: 'x' },
      });
      expect(invalid.isError).toBe(true);
      expect(textOf(invalid)).toMatch(/payload\.name/);

      const ok = await call(client, 'submit', {
        kind: 'vendor.create',
        payload: { name: 'Northwind Supplies' },
      });
      expect(ok.isError).toBeFalsy();
      const submissionId = String(ok.structuredContent?.submissionId);
      expect(ok.structuredContent).toMatchObject({ status: 'started' });
      // The text says what the write does in words: its lane and the rules that fired.
      expect(textOf(ok)).toMatch(
        /^Submitted gateway:[^\n]+\nvendor\.create — (Moderate|High) risk — \d approvals?\n {2}· /,
      );
      const gateway = new GatewayClient(rt.client, database.db, rt.taskQueue);
      const key = submissionId.slice(`gateway:${ORG}:`.length);
      const state = await gateway.settle(ORG, key);
      expect(state).toMatchObject({ submissionId, orgId: ORG, kind: 'vendor.create' });
      expect(['awaiting_approval', 'completed']).toContain(state.status);
      // The Web UI can filter approvals by lane, and names the agent in the summary.
      const desc = await rt.client.workflow.getHandle(submissionId).describe();
      expect(desc.typedSearchAttributes.get(CsRiskLane)).toBe(state.risk?.lane);
      expect(await desc.staticSummary()).toBe(`vendor.create · ${ORG} · by agent ${AGENT}`);
    } finally {
      await client.close();
    }
  });
});

describe('MCP over stdio', () => {
  it('serves the key holder’s tools only, refuses a write outside its lanes, and stops serving once the key is revoked', async () => {
    const client = new McpClient({ name: 'outside-agent', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [
          require.resolve('tsx/cli'),
          join(__dirname, '..', 'client', 'mcp', 'main.ts'),
          '--transport',
          'stdio',
          '--agents-dir',
          agents.dir,
        ],
        env: {
          ...(process.env as Record<string, string>),
          // The test database's URL is the runtime role's own: use it as is.
          DATABASE_URL: database.url,
          DATABASE_RUNTIME_URL: database.url,
          TEMPORAL_TASK_QUEUE: rt.taskQueue,
          CS_API_KEY: agentKey,
        },
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(ALLOWED_TOOLS);
      const found = await call(client, 'master_data_search', { entity: 'vendor', query: '' });
      expect(found.isError).toBeFalsy();
      expect(found.structuredContent).toMatchObject({ entity: 'vendor' });
      const lane = await call(client, 'submit', { kind: 'bill.post', payload: {} });
      expect(lane.structuredContent).toMatchObject({ status: 'refused' });
      // Revoked mid-session: the next call is refused.
      await revokeApiKey(database.db, agentKeyId, 'test');
      const after = await call(client, 'master_data_search', { entity: 'vendor', query: '' });
      expect(after.isError).toBe(true);
      expect(textOf(after)).toMatch(/no longer authenticates/);
    } finally {
      await client.close();
    }
  });
});
