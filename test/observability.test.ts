import { parseConfig } from '../config/env';
import { createLogger } from '../config/logging';
import { tracingPlugins } from '../config/tracing';

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
