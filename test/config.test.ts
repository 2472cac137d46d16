import { join } from 'node:path';
import { ConfigError, parseConfig } from '../config/env';
import { devServerArgs, loadTemporalDevConfig } from '../config/temporal-dev';
import {
  BinaryNotFoundError,
  findBinary,
  PROJECT_ROOT,
  TEMPORAL_CLI,
} from '../scripts/lib/temporal-binaries';

describe('environment config', () => {
  it('defaults to the dev server and the embedded database', () => {
    const cfg = parseConfig({});
    expect(cfg).toMatchObject({
      TEMPORAL_ADDRESS: '127.0.0.1:7233',
      TEMPORAL_NAMESPACE: 'countersign',
      embeddedDatabase: true,
      EMBEDDED_DB_PORT: 55432,
    });
  });

  it('fails fast naming the variable and what to set', () => {
    expect(() => parseConfig({ DATABASE_URL: 'mysql://x', TEMPORAL_ADDRESS: 'nohost' })).toThrow(
      ConfigError,
    );
    try {
      parseConfig({ DATABASE_URL: 'mysql://x', TEMPORAL_ADDRESS: 'nohost' });
    } catch (err) {
      expect((err as Error).message).toBe(
        'Invalid environment; set these variables correctly:\n' +
          '  TEMPORAL_ADDRESS: host:port, e.g. 127.0.0.1:7233 (got "nohost")\n' +
          '  DATABASE_URL: a postgres:// URL, e.g. postgres://user:pass@localhost:5432/countersign (got "mysql://x")',
      );
    }
    expect(() => parseConfig({ TEMPORAL_TLS_CERT_PATH: '/c.pem' })).toThrow(
      'TEMPORAL_TLS_CERT_PATH is set: also set TEMPORAL_TLS_KEY_PATH',
    );
  });
});

describe('temporal-dev.yaml', () => {
  it('turns into start-dev flags with namespace, ports, SQLite file, search attributes and dynamic config', () => {
    const cfg = loadTemporalDevConfig(join(PROJECT_ROOT, 'temporal-dev.yaml'));
    const args = devServerArgs(cfg, '/root');
    expect(args.slice(0, 12)).toEqual([
      'server',
      'start-dev',
      '--namespace',
      'countersign',
      '--ip',
      '127.0.0.1',
      '--port',
      '7233',
      '--ui-port',
      '8233',
      '--log-level',
      'warn',
    ]);
    expect(args).toEqual(
      expect.arrayContaining([
        '--db-filename',
        '/root/.data/temporal/dev.sqlite',
        '--search-attribute',
        'CsOrg=Keyword',
        '--search-attribute',
        'CsState=Keyword',
      ]),
    );
    expect(args).toEqual(
      expect.arrayContaining([
        '--dynamic-config-value',
        'frontend.enableUpdateWorkflowExecution=true',
      ]),
    );
  });
});

describe('Temporal binary lookup', () => {
  const saved = process.env.TEMPORAL_CLI;
  afterEach(() => {
    if (saved === undefined) delete process.env.TEMPORAL_CLI;
    else process.env.TEMPORAL_CLI = saved;
  });

  it('uses $TEMPORAL_CLI first, and says so when it does not exist', () => {
    process.env.TEMPORAL_CLI = '/nonexistent/temporal';
    expect(() => findBinary(TEMPORAL_CLI, { install: false })).toThrow(
      new BinaryNotFoundError('TEMPORAL_CLI=/nonexistent/temporal does not exist'),
    );
    process.env.TEMPORAL_CLI = process.execPath;
    expect(findBinary(TEMPORAL_CLI, { install: false })).toBe(process.execPath);
  });
});
