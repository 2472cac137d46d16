import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';

/**
 * temporal-dev.yaml → `temporal server start-dev` flags. The CLI reads no config file, so
 * this schema is the file's contract and the flag list is derived from it in one place.
 */
export const TemporalDevConfigSchema = z
  .object({
    namespace: z.string().min(1),
    ip: z.string().default('127.0.0.1'),
    port: z.number().int().min(1).max(65535),
    uiPort: z.number().int().min(1).max(65535),
    httpPort: z.number().int().min(1).max(65535).optional(),
    metricsPort: z.number().int().min(1).max(65535).optional(),
    dbFilename: z.string().optional(),
    logLevel: z.enum(['debug', 'info', 'warn', 'error', 'never']).default('warn'),
    headless: z.boolean().default(false),
    /**
     * The codec server the Web UI calls to show encrypted payloads (the API's /codec; `npm
     * start` sets it to its own API). The browser calls it, so it must be reachable from there.
     */
    uiCodecEndpoint: z.string().url().optional(),
    searchAttributes: z
      .record(
        z.string(),
        z.enum(['Text', 'Keyword', 'Int', 'Double', 'Bool', 'Datetime', 'KeywordList']),
      )
      .default({}),
    dynamicConfig: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();
export type TemporalDevConfig = z.infer<typeof TemporalDevConfigSchema>;

export function loadTemporalDevConfig(path: string): TemporalDevConfig {
  const parsed = TemporalDevConfigSchema.safeParse(parse(readFileSync(path, 'utf8')));
  if (!parsed.success) {
    throw new Error(
      `${path} is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

export function devServerArgs(
  cfg: TemporalDevConfig,
  projectRoot: string,
  overrides: Partial<TemporalDevConfig> = {},
): string[] {
  const c = { ...cfg, ...overrides };
  const args = [
    'server',
    'start-dev',
    '--namespace',
    c.namespace,
    '--ip',
    c.ip,
    '--port',
    String(c.port),
    '--ui-port',
    String(c.uiPort),
    '--log-level',
    c.logLevel,
  ];
  if (c.httpPort) args.push('--http-port', String(c.httpPort));
  if (c.metricsPort) args.push('--metrics-port', String(c.metricsPort));
  if (c.dbFilename) args.push('--db-filename', resolve(projectRoot, c.dbFilename));
  if (c.headless) args.push('--headless');
  if (c.uiCodecEndpoint) args.push('--ui-codec-endpoint', c.uiCodecEndpoint);
  for (const [k, t] of Object.entries(c.searchAttributes))
    args.push('--search-attribute', `${k}=${t}`);
  for (const [k, v] of Object.entries(c.dynamicConfig))
    args.push('--dynamic-config-value', `${k}=${JSON.stringify(v)}`);
  return args;
}
