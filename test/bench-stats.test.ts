import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { latencyRatio, percentiles } from '../scripts/lib/bench-stats';
import { benchPorts } from '../scripts/lib/bench-platform';

describe('bench figures', () => {
  it('takes nearest-rank percentiles of unsorted samples', () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1
    expect(percentiles(samples)).toEqual({ p50: 51, p95: 96, p99: 100 });
    expect(percentiles([])).toEqual({ p50: 0, p95: 0, p99: 0 });
  });

  it('divides the baseline by the measured latency, and never by zero', () => {
    expect(latencyRatio({ p50: 2500, p95: 4750 }, { p50: 180, p95: 200 })).toEqual({
      p50: 13.89,
      p95: 23.75,
    });
    expect(latencyRatio({ p50: 2500, p95: 4750 }, { p50: 0, p95: 200 })).toEqual({
      p50: null,
      p95: 23.75,
    });
  });

  it("gives each suite of a combined run its own ports from the engineer's base", () => {
    const env = { CS_BENCH_TEMPORAL_PORT: '18600', CS_BENCH_PG_PORT: '16600' };
    const all = [0, 10, 20].map((o) => benchPorts(o, { temporal: 1, pg: 2 }, env));
    expect(all).toEqual([
      { temporalPort: 18600, embeddedPgPort: 16600 },
      { temporalPort: 18610, embeddedPgPort: 16610 },
      { temporalPort: 18620, embeddedPgPort: 16620 },
    ]);
    expect(benchPorts(10, { temporal: 17900, pg: 25499 }, {})).toEqual({
      temporalPort: 17900,
      embeddedPgPort: 25499,
    });
  });

  it('keeps every default port of the benches, evals and fault suite below the ephemeral range', () => {
    // A server port inside 32768–60999 can be taken by a client socket as its local end; the
    // database then cannot start there (CI failed so on 55498 and 55950).
    const scripts = join(__dirname, '..', 'scripts');
    const files = [
      ...readdirSync(scripts).map((f) => join(scripts, f)),
      ...['chaos', 'eval'].flatMap((d) =>
        readdirSync(join(scripts, d)).map((f) => join(scripts, d, f)),
      ),
    ].filter((f) => f.endsWith('.ts'));
    const ports: [string, number][] = [];
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      for (const m of text.matchAll(/benchPorts\(\d+, \{ temporal: ([\d_]+), pg: ([\d_]+) \}\)/g))
        ports.push([f, Number(m[1]!.replace(/_/g, ''))], [f, Number(m[2]!.replace(/_/g, ''))]);
      for (const m of text.matchAll(/PORT\b[^\n]*\?\? ([\d_]{4,})\)/g))
        ports.push([f, Number(m[1]!.replace(/_/g, ''))]);
      for (const m of text.matchAll(/\['pg-port'\] \?\? ([\d_]{4,})\)/g))
        ports.push([f, Number(m[1]!.replace(/_/g, ''))]);
    }
    expect(ports.length).toBeGreaterThanOrEqual(18);
    expect(ports.filter(([, p]) => p >= 32768)).toEqual([]);
  });
});
