import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';

/**
 * A loopback server speaking the Anthropic Messages API for the chaos agents: a request whose
 * last message carries no tool result gets a tool call; one that does gets the final text.
 * The call is master_data_search for chaos_echo, and for chaos_loop (the only agent offered
 * emit_event) an emit_event of the very event type that triggered it: a self-triggering
 * loop, which only the runtime's breaker can stop. Stateless, so a run replayed after a
 * worker kill asks and is answered the same way.
 */
export async function startChaosModel(): Promise<{
  url: string;
  calls: () => number;
  close(): Promise<void>;
}> {
  let calls = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      calls += 1;
      const parsed = JSON.parse(body || '{}') as {
        model?: string;
        messages?: { role: string; content: unknown }[];
        tools?: { name?: string }[];
      };
      const loops = (parsed.tools ?? []).some((t) => t.name === 'emit_event');
      const last = parsed.messages?.[parsed.messages.length - 1];
      const answered = JSON.stringify(last?.content ?? '').includes('tool_result');
      const content = answered
        ? [{ type: 'text', text: loops ? 'Passed it on.' : 'Checked the chart of accounts.' }]
        : [
            loops
              ? {
                  type: 'tool_use',
                  id: `toolu_chaos_${calls}`,
                  name: 'emit_event',
                  // A payload of its own per trigger (events dedup on payload): derived from
                  // the run's first message, which carries the triggering event.
                  input: {
                    type: LOOP_EVENT,
                    payload: {
                      after: createHash('sha256')
                        .update(JSON.stringify(parsed.messages?.[0] ?? ''))
                        .digest('hex')
                        .slice(0, 16),
                    },
                  },
                }
              : {
                  type: 'tool_use',
                  id: `toolu_chaos_${calls}`,
                  name: 'master_data_search',
                  input: { entity: 'account', query: 'cash' },
                },
          ];
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${calls}` });
      res.end(
        JSON.stringify({
          id: `msg_${calls}`,
          type: 'message',
          role: 'assistant',
          model: parsed.model ?? 'claude',
          content,
          stop_reason: answered ? 'end_turn' : 'tool_use',
          stop_sequence: null,
          usage: {
            input_tokens: 800,
            output_tokens: 40,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 0,
          },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    calls: () => calls,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The chaos agent's config.yaml: llm mode, one read tool, five runs at a time. */
export const CHAOS_AGENT = {
  agent_type: 'chaos_echo',
  model_tier: 'fast',
  execution_mode: 'llm',
  max_concurrent_runs: 5,
  timeout_minutes: 10,
  allowed_workflows: [],
  allowed_tools: ['master_data_search'],
  trigger_events: ['chaos.ping'],
  max_turns: 4,
  max_tokens: 256,
  budgets: { per_run_usd: '1.00' },
};

/** The event the loop agent takes and emits again. */
export const LOOP_EVENT = 'chaos.loop';

/** chaos_loop's config.yaml: llm mode; on chaos.loop it emits chaos.loop (via the model). */
export const LOOP_AGENT = {
  agent_type: 'chaos_loop',
  model_tier: 'fast',
  execution_mode: 'llm',
  max_concurrent_runs: 5,
  timeout_minutes: 10,
  allowed_workflows: [],
  allowed_tools: ['emit_event'],
  trigger_events: [LOOP_EVENT],
  max_turns: 4,
  max_tokens: 256,
  budgets: { per_run_usd: '1.00' },
};
