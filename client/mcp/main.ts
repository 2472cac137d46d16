import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Command } from 'commander';
import { loadConfig } from '../../config/env';
import { openDatabase } from '../../db/connection';
import { authenticateApiKey } from '../../db/repositories/credentials';
import { authenticateCli, presentedKey } from '../credentials';
import { AuthenticationError } from '../errors';
import { connectClient } from '../temporal-connection';
import { buildAgentMcpServer } from './agent-tools';
import { startMcpHttpServer } from './http-server';

/**
 * `npm run mcp -- --transport stdio|http`: the agent tool registry over MCP. stdio serves the
 * one agent whose key this process holds (CS_API_KEY / CS_API_KEY_FILE, as the CLI); http
 * serves any agent, authenticated per request by its bearer key. stdout belongs to the
 * protocol under stdio: diagnostics go to stderr.
 */
async function main(): Promise<void> {
  const o = new Command('countersign-mcp')
    .option('--transport <t>', 'stdio | http', 'stdio')
    .option('--port <n>', 'http: port', '8790')
    .option('--host <h>', 'http: interface', '127.0.0.1')
    .option('--agents-dir <dir>', 'agents/ folder with the tool allow-lists')
    .parse()
    .opts<{ transport: string; port: string; host: string; agentsDir?: string }>();
  const cfg = loadConfig();
  const database = await openDatabase(cfg);
  const client = await connectClient(cfg, database.db);
  const deps = {
    db: database.db,
    client,
    taskQueue: cfg.TEMPORAL_TASK_QUEUE,
    agentsDir: o.agentsDir,
  };
  const shutdown = async () => {
    await client.connection.close();
    await database.close();
  };
  if (o.transport === 'stdio') {
    const principal = await authenticateCli(database.db, cfg);
    if (principal.kind !== 'agent')
      throw new AuthenticationError('MCP serves agents; CS_API_KEY is a person’s key');
    const server = buildAgentMcpServer(deps, principal, {
      stillAuthenticated: async () => (await authenticateApiKey(database.db, presentedKey(cfg))).ok,
    });
    const transport = new StdioServerTransport();
    transport.onclose = () => void shutdown();
    await server.connect(transport);
    process.stderr.write(
      `countersign MCP (stdio) for agent ${principal.agentId} of ${principal.orgId}\n`,
    );
    return;
  }
  if (o.transport !== 'http') throw new Error(`--transport ${o.transport}: stdio or http`);
  const http = await startMcpHttpServer(deps, { port: Number(o.port), host: o.host });
  process.stderr.write(`countersign MCP at ${http.url}\n`);
  const stop = () => void http.close().then(shutdown);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}\n`);
  process.exit(err instanceof AuthenticationError ? 2 : 1);
});
