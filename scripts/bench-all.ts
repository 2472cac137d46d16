import { cpus, loadavg, totalmem } from 'node:os';
import { benchEvents, type EventsBench } from './bench-events';
import { benchGateway, type GatewayBench } from './bench-gateway';
import { benchGatewayBatch, type GatewayBatchBench } from './bench-gateway-batch';
import { benchAnalysis, type AnalysisBench } from './bench-analysis';
import { benchBankLines, type BankLinesBench } from './bench-bank-lines';
import { benchFloor, type FloorBench } from './bench-floor';
import { latencyRatio } from './lib/bench-stats';
import { runPollingBaseline, type PollingBaselineResult } from './lib/polling-baseline';

/**
 * `npm run bench -- [all] [--short] [--poll-ms 5000] [--json FILE]`: the floor (bare Temporal,
 * at the gateway suite's size, first), then the events, gateway,
 * gateway-batch, analysis and bank-lines suites one after another in this process (each on a
 * platform of its own, started and stopped by the suite), plus the polling baseline run inside the events suite's
 * platform right after its probe, with the same number of probe events at the same gaps.
 */
export interface BenchAllSizes {
  events: { n: number; probe: number; cap: number };
  gateway: { n: number; concurrency: number };
  gatewayBatch: { batches: number; size: number };
  analysis: { n: number; concurrency: number };
  bankLines: { lines: number; perEvent: number };
  pollMs: number;
}

export const BENCH_ALL_SIZES: Record<'short' | 'full', Omit<BenchAllSizes, 'pollMs'>> = {
  // Sized to finish in well under 5 minutes on a 2-core machine.
  short: {
    events: { n: 200, probe: 30, cap: 20 },
    gateway: { n: 100, concurrency: 10 },
    gatewayBatch: { batches: 2, size: 500 },
    analysis: { n: 40, concurrency: 4 },
    bankLines: { lines: 1000, perEvent: 250 },
  },
  full: {
    events: { n: 1000, probe: 50, cap: 20 },
    gateway: { n: 300, concurrency: 20 },
    gatewayBatch: { batches: 5, size: 1000 },
    analysis: { n: 200, concurrency: 8 },
    bankLines: { lines: 5000, perEvent: 500 },
  },
};

type Load = [number, number, number];
/** a ÷ b to two decimals; null when b is 0 (never a division by zero shown as a figure). */
const ratio = (a: number, b: number): number | null =>
  b > 0 ? Math.round((a / b) * 100) / 100 : null;
const load = (): Load => loadavg().map((x) => Math.round(x * 100) / 100) as Load;

export interface BenchAllResult {
  suite: 'all';
  mode: 'short' | 'full';
  startedAt: string;
  wallSeconds: number;
  machine: {
    cores: number;
    cpuModel: string;
    memoryMiB: number;
    node: string;
    /** 1, 5 and 15 minute load averages: other processes on the machine share the cores. */
    loadAverageAtStart: Load;
    loadAverageAtEnd: Load;
  };
  /** Bare Temporal on the same machine in the same run, at the gateway suite's size. */
  floor: FloorBench & { loadAverageAtStart: Load };
  /** Countersign ÷ floor, measured in this run (throughput: higher is closer to the floor). */
  vsFloor: {
    /** Gateway auto-lane postings/s ÷ floor 3-activity workflows/s, same concurrency. */
    gatewayThroughput: number | null;
    /** Gateway auto-lane p50 ÷ floor 3-activity p50 at that concurrency (≥ 1: slower). */
    gatewayLatencyP50: number | null;
    /** Event pickup p50 ÷ floor sequential 1-activity p50. */
    eventPickupP50: number | null;
  };
  events: EventsBench & { loadAverageAtStart: Load };
  polling: PollingBaselineResult & {
    /** Polling ÷ Temporal pickup latency (events.pickupLatencyMs), per percentile. */
    ratio: { p50: number | null; p95: number | null };
    comparedWith: string;
  };
  gateway: GatewayBench & { loadAverageAtStart: Load };
  gatewayBatch: GatewayBatchBench & { loadAverageAtStart: Load };
  /** Its own loadAverageAtStart, taken when the suite started. */
  analysis: AnalysisBench;
  bankLines: BankLinesBench;
}

export async function benchAll(
  mode: 'short' | 'full',
  pollMs: number,
  log: (line: string) => void,
): Promise<BenchAllResult> {
  const sizes = BENCH_ALL_SIZES[mode];
  const t0 = performance.now();
  const startedAt = new Date().toISOString();
  const loadAtStart = load();

  log(
    `floor: bare Temporal, ${sizes.gateway.n} three-activity workflows, concurrency ${sizes.gateway.concurrency}`,
  );
  const floorLoad = load();
  const floor = await benchFloor(sizes.gateway);

  log(`events: ${sizes.events.n} burst, ${sizes.events.probe} probe; polling every ${pollMs} ms`);
  let polling: PollingBaselineResult | undefined;
  const eventsLoad = load();
  const events = await benchEvents({
    ...sizes.events,
    afterProbe: async ({ ownerUrl, probeGapsMs }) => {
      polling = await runPollingBaseline({
        connectionString: ownerUrl,
        pollMs,
        gapsMs: probeGapsMs,
      });
    },
  });
  if (!polling) throw new Error('the polling baseline did not run');

  log(`gateway: ${sizes.gateway.n} submissions, concurrency ${sizes.gateway.concurrency}`);
  const gatewayLoad = load();
  const gateway = await benchGateway(sizes.gateway.n, sizes.gateway.concurrency);

  log(`gateway-batch: ${sizes.gatewayBatch.batches} × ${sizes.gatewayBatch.size} entries`);
  const batchLoad = load();
  const gatewayBatch = await benchGatewayBatch(sizes.gatewayBatch);

  log(`analysis: ${sizes.analysis.n} requests, concurrency ${sizes.analysis.concurrency}`);
  const analysis = await benchAnalysis(sizes.analysis);

  log(`bank-lines: ${sizes.bankLines.lines} lines, ${sizes.bankLines.perEvent} per event`);
  const bankLines = await benchBankLines(sizes.bankLines);

  return {
    suite: 'all',
    mode,
    startedAt,
    wallSeconds: Math.round((performance.now() - t0) / 1000),
    machine: {
      cores: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      memoryMiB: Math.round(totalmem() / 2 ** 20),
      node: process.version,
      loadAverageAtStart: loadAtStart,
      loadAverageAtEnd: load(),
    },
    floor: { ...floor, loadAverageAtStart: floorLoad },
    vsFloor: {
      gatewayThroughput: ratio(gateway.submitsPerSecond, floor.concurrent.workflowsPerSecond),
      gatewayLatencyP50: ratio(gateway.autoLaneLatencyMs.p50, floor.concurrent.latencyMs.p50),
      eventPickupP50: ratio(events.pickupLatencyMs.p50, floor.sequential.oneActivityMs.p50),
    },
    events: { ...events, loadAverageAtStart: eventsLoad },
    polling: {
      ...polling,
      ratio: latencyRatio(polling.pickupLatencyMs, events.pickupLatencyMs),
      comparedWith:
        'events.pickupLatencyMs: accepted → the agent run row written by the run’s first activity (event workflow started, dispatched, agent run workflow started), same number of probe events at the same gaps',
    },
    gateway: { ...gateway, loadAverageAtStart: gatewayLoad },
    gatewayBatch: { ...gatewayBatch, loadAverageAtStart: batchLoad },
    analysis,
    bankLines,
  };
}

/** One table of the headline figures, a row per figure. */
export function benchAllTable(r: BenchAllResult): string {
  const ms = (p: { p50: number; p95: number; p99?: number }) =>
    `p50 ${p.p50} · p95 ${p.p95}${p.p99 === undefined ? '' : ` · p99 ${p.p99}`} ms`;
  const x = (v: number | null) => (v === null ? '—' : `${v}×`);
  const rows: [string, string, string][] = [
    [
      'floor',
      'bare Temporal, 1 / 3 activities, one at a time',
      `p50 ${r.floor.sequential.oneActivityMs.p50} / ${r.floor.sequential.threeActivitiesMs.p50} ms`,
    ],
    [
      'floor',
      `3-activity workflows/s (${r.floor.concurrent.workflows}, conc. ${r.floor.concurrent.concurrency})`,
      `${r.floor.concurrent.workflowsPerSecond} · ${ms(r.floor.concurrent.latencyMs)}`,
    ],
    ['vs floor', 'gateway postings/s ÷ floor workflows/s', x(r.vsFloor.gatewayThroughput)],
    ['vs floor', 'gateway p50 ÷ floor 3-activity p50', x(r.vsFloor.gatewayLatencyP50)],
    ['vs floor', 'event pickup p50 ÷ floor 1-activity p50', x(r.vsFloor.eventPickupP50)],
    ['events', 'pickup latency (accepted → agent run row)', ms(r.events.pickupLatencyMs)],
    ['events', 'pickup → running (slots granted)', ms(r.events.pickupToRunningMs)],
    [
      'events',
      `sustained events/s (burst of ${r.events.events})`,
      String(r.events.eventsPerSecond),
    ],
    ['events', 'dropped', String(r.events.dropped)],
    [
      'polling',
      `pickup latency, poll every ${r.polling.pollMs} ms (${r.polling.picked}/${r.polling.probeEvents} picked)`,
      ms(r.polling.pickupLatencyMs),
    ],
    [
      'polling',
      'ratio polling ÷ temporal pickup',
      `p50 ${r.polling.ratio.p50 ?? '—'}× · p95 ${r.polling.ratio.p95 ?? '—'}×`,
    ],
    [
      'gateway',
      `auto-lane postings/s end to end (${r.gateway.submissions}, conc. ${r.gateway.concurrency})`,
      String(r.gateway.submitsPerSecond),
    ],
    ['gateway', 'auto-lane latency submit → applied', ms(r.gateway.autoLaneLatencyMs)],
    ['gateway', 'apply layer alone, applies/s', String(r.gateway.appliesPerSecond)],
    [
      'gateway-batch',
      `entries/s (${r.gatewayBatch.batches} × ${r.gatewayBatch.entriesPerBatch})`,
      String(r.gatewayBatch.entriesPerSecond),
    ],
    [
      'gateway-batch',
      'batch latency',
      `p50 ${r.gatewayBatch.batchLatencyMs.p50} · max ${r.gatewayBatch.batchLatencyMs.max} ms`,
    ],
    [
      'analysis',
      `requests/s, code mode (${r.analysis.requests}, conc. ${r.analysis.concurrency})`,
      String(r.analysis.requestsPerSecond),
    ],
    ['analysis', 'latency start → settled', ms(r.analysis.latencyMs)],
    [
      'analysis',
      'outcomes',
      `delivered ${r.analysis.outcomes.delivered} · needs review ${r.analysis.outcomes.needsReview} · refused ${r.analysis.outcomes.refused} · unsettled ${r.analysis.outcomes.unsettled}`,
    ],
    ['analysis', 'ingestion of the document (not in the rate)', `${r.analysis.ingestionMs} ms`],
    [
      'bank-lines',
      `lines classified/s (${r.bankLines.lines} in ${r.bankLines.events} events)`,
      String(r.bankLines.classifiedPerSecond),
    ],
    [
      'bank-lines',
      `lines posted/s (${r.bankLines.autoPosted} auto, entries applied)`,
      String(r.bankLines.postedPerSecond),
    ],
    [
      'bank-lines',
      'asked · trial balance nets to zero',
      `${r.bankLines.asked} · ${r.bankLines.trialBalanceNetsToZero ? 'yes' : 'NO'}`,
    ],
  ];
  const w0 = Math.max(5, ...rows.map((x) => x[0].length));
  const w1 = Math.max(6, ...rows.map((x) => x[1].length));
  const line = (a: string, b: string, c: string) => `${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c}`;
  const m = r.machine;
  return [
    line('suite', 'figure', 'value'),
    line('-'.repeat(w0), '-'.repeat(w1), '-----'),
    ...rows.map(([a, b, c]) => line(a, b, c)),
    '',
    `${r.mode} run, ${r.wallSeconds} s · ${m.cores} cores (${m.cpuModel}), ${m.memoryMiB} MiB, node ${m.node} · load average ${m.loadAverageAtStart.join(' ')} at start, ${m.loadAverageAtEnd.join(' ')} at end`,
    `polling baseline: ${r.polling.design}`,
  ].join('\n');
}
