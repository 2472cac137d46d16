import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { authenticateApiKey } from '../../db/repositories/credentials';
import { buildAgentMcpServer, type McpDeps } from './agent-tools';

const MAX_BODY_BYTES = 1_000_000;

function problem(res: ServerResponse, status: number, title: string, detail: string): void {
  res.writeHead(status, {
    'content-type': 'application/problem+json',
    ...(status === 401 ? { 'www-authenticate': 'Bearer realm="countersign-mcp"' } : {}),
  });
  res.end(
    JSON.stringify({
      type: `https://countersign.dev/problems/mcp-${status}`,
      title,
      status,
      detail,
    }),
  );
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('body too large');
    chunks.push(c as Buffer);
  }
  return chunks.length
    ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown)
    : undefined;
}

/**
 * MCP over streamable HTTP at /mcp, stateless: every request carries `Authorization: Bearer
 * <agent key>` and gets a server built for that key's agent, so a revoked or disabled key
 * stops working at its next request. Keys of people are refused: MCP is for agents.
 */
export async function startMcpHttpServer(
  deps: McpDeps,
  opts: { port: number; host?: string },
): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    void (async () => {
      if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp')
        return problem(res, 404, 'Not found', 'the MCP endpoint is /mcp');
      if (req.method !== 'POST')
        return problem(res, 405, 'Method not allowed', 'stateless MCP: POST only');
      const auth = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
      if (!auth?.[1])
        return problem(res, 401, 'Unauthenticated', 'send Authorization: Bearer <agent key>');
      const r = await authenticateApiKey(deps.db, auth[1]);
      if (!r.ok)
        return problem(res, 401, 'Unauthenticated', `the key does not authenticate (${r.reason})`);
      if (r.principal.kind !== 'agent')
        return problem(res, 403, 'Forbidden', 'MCP serves agents; this is a person’s key');
      let body: unknown;
      try {
        body = await readJson(req);
      } catch (err) {
        return problem(res, 400, 'Bad request', err instanceof Error ? err.message : String(err));
      }
      const mcp = buildAgentMcpServer(deps, r.principal);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      res.on('close', () => {
        void transport.close();
        void mcp.close();
      });
      await mcp.connect(transport);
      await transport.handleRequest(req, res, body);
    })().catch((err: unknown) => {
      if (!res.headersSent)
        problem(res, 500, 'Internal error', err instanceof Error ? err.message : String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port, opts.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}/mcp`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
