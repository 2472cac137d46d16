import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import type { Db } from '../../db/connection';
import { AGENT_HANDLERS } from '../../agents/handlers';
import { syncAgentRows } from '../../db/repositories/agent-runs';
import {
  AgentConfigSchema,
  snapshotOf,
  type AgentConfig,
  type AgentSnapshot,
} from '../../workflows/agent-runs/config';
import { filterTools, ToolFilterError } from '../../workflows/agent-runs/tools';

export const AGENTS_DIR = resolve(__dirname, '..', '..', 'agents');

export interface AgentDefinition {
  config: AgentConfig;
  snapshot: AgentSnapshot;
  prompt: string;
  dir: string;
  configHash: string;
}

/**
 * The largest config.yaml and prompt.md the loader reads (the shipped ones are under 3 KB).
 * A bigger file is refused before parsing: YAML's duplicate-key check grows with the square
 * of a mapping's size, so a 4 MB config of one long mapping held a worker's start for minutes.
 */
export const MAX_CONFIG_BYTES = 32 * 1024;
export const MAX_PROMPT_BYTES = 256 * 1024;

/** Why a file cannot be read as an agent's file, or undefined when it can. */
function fileProblem(path: string, max: number): string | undefined {
  const st = statSync(path);
  if (!st.isFile()) return 'not a regular file';
  if (st.size > max) return `${st.size} bytes, over the ${max}-byte limit`;
  return undefined;
}

/** A bad agent definition: names the file and the field path, and stops the worker. */
export class AgentConfigError extends Error {
  override readonly name = 'AgentConfigError';
  constructor(
    readonly file: string,
    readonly fieldPath: string,
    message: string,
  ) {
    super(`${file}: ${fieldPath || '(root)'}: ${message}`);
  }
}

/**
 * Loads and validates every agents/<type>/ folder: config.yaml against the schema, the folder
 * named as its agent_type, a non-empty prompt.md, a registered handler for code and hybrid
 * modes, and an allow-list whose filter provably filters. The first problem throws.
 */
export function loadAgentDefinitions(dir: string = AGENTS_DIR): AgentDefinition[] {
  const defs: AgentDefinition[] = [];
  const root = resolve(dir, '..');
  for (const name of readdirSync(dir).sort()) {
    const folder = join(dir, name);
    if (!statSync(folder).isDirectory()) continue;
    const configFile = join(folder, 'config.yaml');
    const rel = relative(root, configFile);
    if (!existsSync(configFile)) throw new AgentConfigError(rel, '', 'missing config.yaml');
    const tooBig = fileProblem(configFile, MAX_CONFIG_BYTES);
    if (tooBig) throw new AgentConfigError(rel, '', tooBig);
    let raw: unknown;
    try {
      raw = parse(readFileSync(configFile, 'utf8'));
    } catch (err) {
      throw new AgentConfigError(rel, '', `not valid YAML: ${(err as Error).message}`);
    }
    const parsed = AgentConfigSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AgentConfigError(rel, issue?.path.join('.') ?? '', issue?.message ?? 'invalid');
    }
    const config = parsed.data;
    if (config.agent_type !== name)
      throw new AgentConfigError(rel, 'agent_type', `must equal the folder name ${name}`);
    try {
      filterTools(config.allowed_tools);
    } catch (err) {
      if (err instanceof ToolFilterError)
        throw new AgentConfigError(rel, 'allowed_tools', err.message);
      throw err;
    }
    if (config.allowed_workflows.length > 0 && !config.allowed_tools.includes('submit'))
      throw new AgentConfigError(rel, 'allowed_tools', 'allowed_workflows needs the submit tool');
    if (config.execution_mode !== 'llm') {
      if (!existsSync(join(folder, 'handler.ts')))
        throw new AgentConfigError(
          rel,
          'execution_mode',
          `${config.execution_mode} mode needs ${name}/handler.ts`,
        );
      if (!AGENT_HANDLERS[name])
        throw new AgentConfigError(
          rel,
          'execution_mode',
          `${name}/handler.ts is not registered in agents/handlers.ts`,
        );
    }
    const promptFile = join(folder, 'prompt.md');
    const promptProblem = existsSync(promptFile)
      ? fileProblem(promptFile, MAX_PROMPT_BYTES)
      : undefined;
    if (promptProblem) throw new AgentConfigError(relative(root, promptFile), '', promptProblem);
    const prompt = existsSync(promptFile) ? readFileSync(promptFile, 'utf8').trim() : '';
    if (!prompt)
      throw new AgentConfigError(relative(root, promptFile), '', 'missing or empty prompt.md');
    const configHash = createHash('sha256')
      .update(JSON.stringify(config))
      .update(prompt)
      .digest('hex');
    defs.push({ config, snapshot: snapshotOf(config), prompt, dir: folder, configHash });
  }
  return defs;
}

/** Writes the definitions to the agents table (never touching enabled or the API key). */
export async function syncAgents(db: Db, defs: AgentDefinition[]): Promise<void> {
  await syncAgentRows(
    db,
    defs.map((d) => ({
      agentType: d.config.agent_type,
      modelTier: d.config.model_tier,
      executionMode: d.config.execution_mode,
      maxConcurrentRuns: d.config.max_concurrent_runs,
      timeoutMinutes: d.config.timeout_minutes,
      triggerEvents: d.config.trigger_events,
      allowedTools: d.config.allowed_tools,
      allowedWorkflows: d.config.allowed_workflows,
      config: d.config,
      prompt: d.prompt,
      configHash: d.configHash,
    })),
  );
}
