import vm from 'node:vm';
import * as workflows from '../workflow-bundle';
import { workflowBundle } from './support/worker';

/**
 * Each workflow run evaluates its modules in its own cache (reusable V8 context), so the
 * bundle's entry (workflow-bundle.ts) must not import every workflow, nor the agents' handlers:
 * a run of one type would evaluate them all (workflows/index.ts). These checks evaluate the test
 * bundle the worker runs, in a bare VM context with the module cache the SDK gives each run,
 * and call one workflow at a time.
 */
function loadBundle(): {
  modulesOf: (type: string) => string[];
} {
  const shared: Record<string, unknown> = {};
  let current: Record<string, unknown> | null = null;
  const cache = new Proxy(
    {},
    {
      get: (_, p: string) => shared[p] ?? current?.[p],
      set: (_, p: string, v: unknown) => {
        (current ?? shared)[p] = v;
        return true;
      },
    },
  );
  const context = vm.createContext({ __webpack_module_cache__: cache, console });
  new vm.Script(workflowBundle().code).runInContext(context);
  const temporal = (context as { __TEMPORAL__: { importWorkflows(): Record<string, unknown> } })
    .__TEMPORAL__;
  return {
    modulesOf(type) {
      current = {};
      const run = temporal.importWorkflows()[type] as (...args: unknown[]) => unknown;
      try {
        // A bad argument: the workflow loads its modules, then refuses the input.
        const out = run(undefined) as { catch?: (f: () => void) => unknown } | undefined;
        // The VM's own Promise: `instanceof Promise` is false across realms.
        if (typeof out?.catch === 'function') out.catch(() => undefined);
      } catch {
        // refused synchronously: its modules are loaded all the same
      }
      const loaded = Object.keys(current);
      current = null;
      return loaded;
    },
  };
}

describe('the workflow bundle loads per workflow type', () => {
  it('exports functions named as their workflow types', () => {
    for (const [key, fn] of Object.entries(workflows)) {
      expect(typeof fn).toBe('function');
      expect((fn as { name: string }).name).toBe(key);
    }
  });

  it("a run evaluates its own workflow's modules, not every workflow's", () => {
    const bundle = loadBundle();
    const of = (type: string) => bundle.modulesOf(type);
    const event = of('eventWorkflow');
    expect(event).toEqual(
      expect.arrayContaining([expect.stringMatching(/workflows\/events\/workflow\.ts$/)]),
    );
    expect(event.filter((m) => /workflows\/(analysis|gateway)\.ts$|\/agents\//.test(m))).toEqual(
      [],
    );
    const gateway = of('gatewayWorkflow');
    expect(gateway).toEqual(
      expect.arrayContaining([expect.stringMatching(/workflows\/gateway\.ts$/)]),
    );
    expect(
      gateway.filter((m) => /workflows\/analysis\.ts$|\/agents\/|events\/workflow\.ts$/.test(m)),
    ).toEqual([]);
    // An agent run loads no agent's handler before its agent is known.
    expect(of('agentRunWorkflow').filter((m) => /\/agents\/[a-z_]+\/handler\.ts$/.test(m))).toEqual(
      [],
    );
    expect(of('slotsWorkflow').length).toBeLessThan(20);
  });
});
