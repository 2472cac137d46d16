import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { WorkerPlugin } from '@temporalio/worker';
import type { AppConfig } from './env';

/**
 * OpenTelemetry tracing through the SDK's interceptors (`@temporalio/interceptors-opentelemetry`):
 * client, workflow and activity spans linked across the run. Off by default
 * (OTEL_TRACES_EXPORTER=none): no plugin, no interceptors, nothing loaded. `console` prints
 * spans; `otlp` sends them over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT.
 */
export async function tracingPlugins(cfg: AppConfig): Promise<WorkerPlugin[]> {
  if (cfg.OTEL_TRACES_EXPORTER === 'none') return [];
  const [{ OpenTelemetryPlugin }, { Resource }, { BatchSpanProcessor, ConsoleSpanExporter }] =
    await Promise.all([
      import('@temporalio/interceptors-opentelemetry'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/sdk-trace-base'),
    ]);
  let exporter: SpanExporter;
  if (cfg.OTEL_TRACES_EXPORTER === 'console') exporter = new ConsoleSpanExporter();
  else {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    exporter = new OTLPTraceExporter({ url: cfg.OTEL_EXPORTER_OTLP_ENDPOINT });
  }
  return [
    new OpenTelemetryPlugin({
      resource: new Resource({ 'service.name': cfg.OTEL_SERVICE_NAME }),
      spanProcessor: new BatchSpanProcessor(exporter),
    }),
  ];
}
