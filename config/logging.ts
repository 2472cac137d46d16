import { DefaultLogger, type LogEntry, type LogLevel } from '@temporalio/worker';

/**
 * Structured logs: one JSON object per line — time, level, message, and the SDK's context
 * (workflowId, runId, workflowType, activityId, taskQueue …) for every log written inside a
 * workflow or activity, so a run's lines are found by its ids. `LOG_FORMAT=pretty` keeps the
 * SDK's human format for a terminal.
 */
export type LogFormat = 'json' | 'pretty';

export function jsonLine(entry: LogEntry, component: string): string {
  const { sdkComponent, ...meta } = (entry.meta ?? {}) as Record<string, unknown>;
  return JSON.stringify(
    {
      ts: new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString(),
      level: entry.level,
      component: (sdkComponent as string | undefined) ?? component,
      msg: entry.message,
      ...meta,
    },
    (_k, v: unknown) =>
      typeof v === 'bigint'
        ? v.toString()
        : v instanceof Error
          ? { name: v.name, message: v.message }
          : v,
  );
}

/** The logger for Runtime.install (worker) or for any other process (API, MCP server). */
export function createLogger(
  level: LogLevel,
  format: LogFormat,
  component: string,
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): DefaultLogger {
  return format === 'pretty'
    ? new DefaultLogger(level)
    : new DefaultLogger(level, (entry) => write(jsonLine(entry, component)));
}
