import { ConfigError, parseConfig } from '../config/env';
import * as workflows from '../workflows';
import { DOMAIN_MODULES } from '../domains';
import { cacheShares } from '../worker';
import {
  DEFAULT_TASK_QUEUE,
  DOMAINS,
  baseTaskQueue,
  domainTaskQueue,
  slotsTaskQueue,
} from '../workflows/task-queue';

/** Pure checks of the domain split: WORKER_DOMAINS, queue names, registry, cache budget. */
describe('WORKER_DOMAINS', () => {
  it('defaults to every domain (one process runs them all, as npm start does)', () => {
    expect(parseConfig({}).WORKER_DOMAINS).toEqual([
      'analysis',
      'gateway',
      'events',
      'agents',
      'requests',
    ]);
    expect(parseConfig({ WORKER_DOMAINS: ' , ' }).WORKER_DOMAINS).toEqual([...DOMAINS]);
  });

  it('takes a comma-separated subset, trimmed, each once, in the registry order', () => {
    expect(parseConfig({ WORKER_DOMAINS: ' events,gateway , events' }).WORKER_DOMAINS).toEqual([
      'gateway',
      'events',
    ]);
  });

  it('refuses unknown domains, naming them and the known ones', () => {
    expect(() => parseConfig({ WORKER_DOMAINS: 'gateway,ledger,Events' })).toThrow(ConfigError);
    expect(() => parseConfig({ WORKER_DOMAINS: 'gateway,ledger,Events' })).toThrow(
      'WORKER_DOMAINS: unknown domains "ledger", "Events"; known: analysis, gateway, events, agents, requests (got "gateway,ledger,Events")',
    );
  });

  it('drains the bare base queue only in a process that serves every domain', () => {
    expect(parseConfig({ WORKER_DRAIN_BASE_QUEUE: '1' }).WORKER_DRAIN_BASE_QUEUE).toBe(true);
    expect(parseConfig({}).WORKER_DRAIN_BASE_QUEUE).toBe(false);
    expect(() => parseConfig({ WORKER_DRAIN_BASE_QUEUE: '1', WORKER_DOMAINS: 'gateway' })).toThrow(
      'WORKER_DRAIN_BASE_QUEUE is set: runs on the bare base queue may call any domain, so the process must serve all of them (unset WORKER_DOMAINS).',
    );
  });

  it('refuses a base queue that already ends like a derived one', () => {
    for (const q of ['prod-gateway', 'prod-slots'])
      expect(() => parseConfig({ TEMPORAL_TASK_QUEUE: q })).toThrow(
        /TEMPORAL_TASK_QUEUE: a base queue name, not ending in -analysis, .*-slots/,
      );
    expect(parseConfig({ TEMPORAL_TASK_QUEUE: 'prod-eu' }).TEMPORAL_TASK_QUEUE).toBe('prod-eu');
  });
});

describe('domain queues and registry', () => {
  it('derives each domain queue from the base and the base back from it', () => {
    expect(DOMAINS.map((d) => domainTaskQueue(DEFAULT_TASK_QUEUE, d))).toEqual([
      'countersign-analysis',
      'countersign-gateway',
      'countersign-events',
      'countersign-agents',
      'countersign-requests',
    ]);
    for (const d of DOMAINS) {
      expect(baseTaskQueue(domainTaskQueue('test-ab12', d))).toBe('test-ab12');
      expect(DOMAIN_MODULES[d].taskQueue('test-ab12')).toBe(domainTaskQueue('test-ab12', d));
    }
    // A queue from before the split is its own base.
    expect(baseTaskQueue('countersign')).toBe('countersign');
    expect(slotsTaskQueue('countersign')).toBe('countersign-slots');
  });

  it('puts every workflow of the bundle in exactly one domain (the slots on their own queue)', () => {
    const owned = DOMAINS.flatMap((d) => DOMAIN_MODULES[d].workflows.map((w) => [w, d]));
    const exported = Object.keys(workflows).filter((k) => k !== 'slotsWorkflow');
    expect(owned.map(([w]) => w).sort()).toEqual(exported.sort());
    expect(new Set(owned.map(([w]) => w)).size).toBe(owned.length);
  });

  it("splits the process's workflow cache over the domains it runs, within the budget", () => {
    const all = cacheShares(DOMAINS, 1000);
    expect(Object.fromEntries(all)).toEqual({
      analysis: 83,
      gateway: 166,
      events: 333,
      agents: 333,
      requests: 83,
    });
    expect([...all.values()].reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1000);
    // One domain alone gets the whole budget.
    expect(Object.fromEntries(cacheShares(['gateway'], 1000))).toEqual({ gateway: 1000 });
  });
});
