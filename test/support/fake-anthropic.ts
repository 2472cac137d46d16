import { createServer, type Server } from 'node:http';

/**
 * A local server that speaks the Anthropic Messages API (POST /v1/messages), so tests drive
 * the real SDK without the internet. Each request gets the next scripted tool_use input.
 */
export interface FakeAnthropic {
  url: string;
  requests: unknown[];
  respondWith(toolInputs: unknown[]): void;
  /** Whole replies (content blocks and stop reason), served in order before respondWith's. */
  replyWith(
    replies: { content: unknown[]; stop_reason?: string; usage?: Record<string, number> }[],
  ): void;
  close(): Promise<void>;
}

export async function startFakeAnthropic(): Promise<FakeAnthropic> {
  const requests: unknown[] = [];
  let queue: unknown[] = [];
  let replies: { content: unknown[]; stop_reason?: string; usage?: Record<string, number> }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/messages') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            type: 'error',
            error: { type: 'not_found_error', message: `no route ${req.url}` },
          }),
        );
        return;
      }
      const parsed = JSON.parse(body) as { model: string; tools?: { name: string }[] };
      requests.push(parsed);
      const reply = replies.shift();
      if (reply) {
        res.writeHead(200, {
          'content-type': 'application/json',
          'request-id': `req_${requests.length}`,
        });
        res.end(
          JSON.stringify({
            id: `msg_${requests.length}`,
            type: 'message',
            role: 'assistant',
            model: parsed.model,
            content: reply.content,
            stop_reason: reply.stop_reason ?? 'end_turn',
            stop_sequence: null,
            usage: {
              input_tokens: 1200,
              output_tokens: 60,
              cache_creation_input_tokens: 0,
              cache_read_input_tokens: 0,
              ...reply.usage,
            },
          }),
        );
        return;
      }
      const input = queue.shift() ?? {
        found: false,
        value_as_printed: null,
        unit: null,
        scale: null,
        page: null,
        quote: null,
        label: null,
      };
      res.writeHead(200, {
        'content-type': 'application/json',
        'request-id': `req_${requests.length}`,
      });
      res.end(
        JSON.stringify({
          id: `msg_${requests.length}`,
          type: 'message',
          role: 'assistant',
          model: parsed.model,
          content: [
            {
              type: 'tool_use',
              id: `toolu_${requests.length}`,
              name: parsed.tools?.[0]?.name ?? 'report_value',
              input,
            },
          ],
          stop_reason: 'tool_use',
          stop_sequence: null,
          usage: {
            input_tokens: 1200,
            output_tokens: 60,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 0,
          },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    respondWith(inputs) {
      queue = [...inputs];
    },
    replyWith(r) {
      replies = [...r];
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}
