import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { stringify } from 'yaml';
import {
  AGENTS_DIR,
  AgentConfigError,
  loadAgentDefinitions,
} from '../activities/agent-runs/agent-files';
import { filterTools, ToolFilterError, TOOL_NAMES } from '../workflows/agent-runs/tools';
import { microToUsd4, usdToMicro } from '../workflows/agent-runs/config';
import { costMicroUsd, loadPriceTable, worstCaseMicroUsd } from '../activities/agent-runs/pricing';
import { measureToolContext } from '../activities/agent-runs/model';

/** Agents are files: what the loader refuses (naming file and field), and the tool filter. */
const VALID = {
  agent_type: 'probe',
  model_tier: 'fast',
  execution_mode: 'llm',
  max_concurrent_runs: 1,
  timeout_minutes: 5,
  allowed_workflows: [],
  allowed_tools: ['master_data_search'],
  trigger_events: ['probe.requested'],
  budgets: { per_run_usd: '0.10' },
};
const dirs: string[] = [];
function agentsDir(config: unknown, opts: { folder?: string; prompt?: string } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'cs-agents-cfg-'));
  dirs.push(dir);
  const folder = join(dir, opts.folder ?? 'probe');
  mkdirSync(folder);
  writeFileSync(join(folder, 'config.yaml'), stringify(config));
  writeFileSync(join(folder, 'prompt.md'), opts.prompt ?? '# probe\n');
  return dir;
}
const loadError = (dir: string): AgentConfigError => {
  try {
    loadAgentDefinitions(dir);
  } catch (err) {
    if (err instanceof AgentConfigError) return err;
    throw err;
  }
  throw new Error('expected AgentConfigError');
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('loading agents/', () => {
  it('loads the shipped agents', () => {
    const defs = loadAgentDefinitions(AGENTS_DIR);
    expect(defs.map((d) => d.config.agent_type)).toContain('document_analyst');
  });

  it('names the file and the field path of a bad value', () => {
    const dir = agentsDir({ ...VALID, budgets: { per_run_usd: 0.1 } });
    const err = loadError(dir);
    expect(err.file).toBe(`${basename(dir)}/probe/config.yaml`);
    expect(err.fieldPath).toBe('budgets.per_run_usd');
    expect(err.message).toMatch(
      /probe\/config\.yaml: budgets\.per_run_usd: Invalid input: expected string, received number$/,
    );
  });

  it('refuses an unknown execution mode and an unknown field', () => {
    expect(loadError(agentsDir({ ...VALID, execution_mode: 'magic' })).fieldPath).toBe(
      'execution_mode',
    );
    expect(loadError(agentsDir({ ...VALID, temperature: 1 })).message).toContain('temperature');
  });

  it('refuses a write kind the gateway does not know', () => {
    const err = loadError(agentsDir({ ...VALID, allowed_workflows: ['ledger.rewrite'] }));
    expect(err.fieldPath).toBe('allowed_workflows.0');
  });

  it('refuses a folder named differently from its agent_type', () => {
    const dir = agentsDir(VALID, { folder: 'other' });
    const err = loadError(dir);
    expect([err.file, err.fieldPath]).toEqual([`${basename(dir)}/other/config.yaml`, 'agent_type']);
  });

  it('refuses an empty prompt.md', () => {
    const dir = agentsDir(VALID, { prompt: '  \n' });
    expect(loadError(dir).file).toBe(`${basename(dir)}/probe/prompt.md`);
  });

  it('refuses a code agent without a registered handler', () => {
    const err = loadError(agentsDir({ ...VALID, execution_mode: 'code' }));
    expect(err.fieldPath).toBe('execution_mode');
    expect(err.message).toContain('needs probe/handler.ts');
  });

  it('refuses allowed_workflows without the submit tool', () => {
    const err = loadError(agentsDir({ ...VALID, allowed_workflows: ['journal.post'] }));
    expect(err.fieldPath).toBe('allowed_tools');
  });

  it('fails loudly on a tool-name prefix mismatch instead of exposing the wrong set', () => {
    const err = loadError(
      agentsDir({ ...VALID, allowed_tools: ['mcp__finance__master_data_search'] }),
    );
    expect(err.fieldPath).toBe('allowed_tools');
    expect(err.message).toContain(
      'match no registry tool (name or prefix mismatch?): mcp__finance__master_data_search',
    );
  });

  it('refuses shell, file and web tools whatever the config says', () => {
    for (const tool of ['bash', 'read_file', 'web_fetch', 'computer'])
      expect(loadError(agentsDir({ ...VALID, allowed_tools: [tool] })).message).toContain(
        `always-blocked tools may not be allowed: ${tool}`,
      );
  });
});

describe('the tool filter', () => {
  it('exposes exactly the allowed tools and disallows the whole complement', () => {
    const f = filterTools(['ap_context', 'submit']);
    expect(f.exposed).toEqual(['ap_context', 'submit']);
    expect([...f.exposed, ...f.disallowed].sort()).toEqual([...TOOL_NAMES].sort());
    expect(f.disallowed).not.toContain('ap_context');
  });

  it('throws when a registry under a prefix would match nothing', () => {
    const prefixed = TOOL_NAMES.map((t) => `finance_${t}`);
    expect(() => filterTools(['ap_context'], prefixed)).toThrow(ToolFilterError);
  });
});

describe('prices and budgets in integer micro-dollars', () => {
  const prices = loadPriceTable();
  it('costs a call per tier from the price table', () => {
    const u = {
      inputTokens: 1200,
      outputTokens: 60,
      cacheCreationTokens: 1000,
      cacheReadTokens: 10_000,
    };
    // 1200×3 + 60×15 + 1000×3.75 + 10000×0.30 = 3600 + 900 + 3750 + 3000 micro-dollars.
    expect(costMicroUsd(prices.standard, u)).toBe(11_250n);
    expect(microToUsd4(11_250n)).toBe('0.0113');
    expect(
      costMicroUsd(prices.fast, {
        inputTokens: 1,
        outputTokens: 0,
        cacheCreationTokens: 0,
        cacheReadTokens: 0,
      }),
    ).toBe(1n);
  });
  it('bounds a call by its request size and max_tokens', () => {
    // 4,000 chars → 1,000 tokens +10 % = 1,100 at $3.75 (cache write) + 2,048 × $15.
    expect(worstCaseMicroUsd(prices.standard, 4000, 2048)).toBe(4125n + 30_720n);
  });
  it('reads dollars as decimal strings', () => {
    expect(usdToMicro('0.50')).toBe(500_000);
    expect(usdToMicro('12')).toBe(12_000_000);
    expect(usdToMicro('0.000001')).toBe(1);
  });
});

describe('tool context size', () => {
  it('is estimated as chars/4 without a key, and grows with the tools an agent may use', async () => {
    const one = await measureToolContext(
      { prompt: 'p', allowedTools: ['trial_balance'], model: 'm' },
      null,
    );
    const all = await measureToolContext(
      { prompt: 'p', allowedTools: [...TOOL_NAMES], model: 'm' },
      null,
    );
    expect(one.method).toBe('chars/4');
    expect(all.tokens).toBeGreaterThan(one.tokens);
  });
});
