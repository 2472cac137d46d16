import { parseConfig } from '../config/env';
import { createLogger } from '../config/logging';
import { tracingPlugins } from '../config/tracing';
import { createApiApp } from '../api/server';

/** Structured logs and tracing switches; pure (CS_UNIT_ONLY=1 runs them without services). */
describe('structured logs', () => {
  it('writes one JSON object per line with level, message and the run ids the SDK attaches', () => {
    const lines: string[] = [];
    const logger = createLogger('INFO', 'json', 'worker', (l) => lines.push(l));
    logger.info('activity failed', {
      sdkComponent: 'activity',
      workflowId: 'gateway:acme:k-1',
      runId: '01a2-run',
      activityType: 'gatewayApply',
      attempt: 2n,
      error: new TypeError('boom'),
    });
    logger.debug('below the level: not written');
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    expect(entry).toEqual({
      ts: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      level: 'INFO',
      component: 'activity',
      msg: 'activity failed',
      workflowId: 'gateway:acme:k-1',
      runId: '01a2-run',
      activityType: 'gatewayApply',
      attempt: '2',
      error: { name: 'TypeError', message: 'boom' },
    });
  });

  it('defaults to JSON and tracing off', () => {
    const cfg = parseConfig({});
    expect(cfg.LOG_FORMAT).toBe('json');
    expect(cfg.OTEL_TRACES_EXPORTER).toBe('none');
  });
});

describe('tracing', () => {
  it('adds no plugin when off, and the OpenTelemetry plugin when an exporter is named', async () => {
    expect(await tracingPlugins(parseConfig({}))).toEqual([]);
    for (const exporter of ['console', 'otlp']) {
      const plugins = await tracingPlugins(parseConfig({ OTEL_TRACES_EXPORTER: exporter }));
      expect(plugins.map((p) => p.name)).toEqual(['OpenTelemetryPlugin']);
    }
  });

  it('refuses an unknown exporter naming the variable', () => {
    expect(() => parseConfig({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/OTEL_TRACES_EXPORTER/);
  });
});

describe('the HTTP API’s request log', () => {
  it('writes one JSON line per request with its id, method, path, status and time', async () => {
    const lines: string[] = [];
    const app = createApiApp({
      // The OpenAPI document and an unknown route touch neither the database nor Temporal.
      db: {} as never,
      client: {} as never,
      taskQueue: 'unused',
      decisionSecret: 'x'.repeat(32),
      logger: createLogger('INFO', 'json', 'api', (l) => lines.push(l)),
    });
    const ok = await app.request('/openapi.json', { headers: { 'x-request-id': 'req-1' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toBe('req-1');
    const missing = await app.request('/no/such/route');
    expect(missing.status).toBe(404);
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries).toEqual([
      expect.objectContaining({
        level: 'INFO',
        component: 'api',
        msg: 'request',
        requestId: 'req-1',
        method: 'GET',
        path: '/openapi.json',
        status: 200,
        ms: expect.any(Number),
      }),
      expect.objectContaining({
        path: '/no/such/route',
        status: 404,
        requestId: missing.headers.get('x-request-id'),
      }),
    ]);
  });
});
