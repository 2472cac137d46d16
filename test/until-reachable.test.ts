import { isUnreachable, untilReachable } from '../config/until-reachable';

/** A start-up step retried only while its server is unreachable, and only within the budget. */
function clock() {
  let t = 0;
  return { now: () => t, sleep: async (ms: number) => void (t += ms) };
}

describe('untilReachable', () => {
  it('retries while the server is unreachable, then returns the step result', async () => {
    const c = clock();
    const lines: string[] = [];
    let calls = 0;
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:55950'), {
      code: 'ECONNREFUSED',
    });
    const starting = Object.assign(new Error('the database system is starting up'), {
      code: '57P03',
    });
    const r = await untilReachable(
      'database',
      async () => {
        calls++;
        if (calls === 1) throw refused;
        if (calls === 2) throw starting;
        return 'migrated';
      },
      { budgetMs: 60_000, log: (l) => lines.push(l), ...c },
    );
    expect(r).toBe('migrated');
    expect(calls).toBe(3);
    expect(c.now()).toBe(500 + 1000);
    expect(lines).toEqual([
      expect.stringMatching(
        /^database: not reachable \(Error: connect ECONNREFUSED .*again in 500 ms$/,
      ),
      expect.stringMatching(
        /^database: not reachable \(Error: the database system is starting up\); again in 1000 ms$/,
      ),
    ]);
  });

  it('gives up with the last error once the budget is spent', async () => {
    const c = clock();
    let calls = 0;
    await expect(
      untilReachable(
        'worker start',
        async () => {
          calls++;
          throw new Error('14 UNAVAILABLE: No connection established');
        },
        { budgetMs: 20_000, log: () => undefined, ...c },
      ),
    ).rejects.toThrow('14 UNAVAILABLE');
    expect(c.now()).toBe(20_000);
    expect(calls).toBe(7); // 0.5 + 1 + 2 + 4 + 8 s, then the 4.5 s left, then the budget is spent
  });

  it('throws any other failure at once', async () => {
    const c = clock();
    let calls = 0;
    await expect(
      untilReachable(
        'database',
        async () => {
          calls++;
          throw new Error('relation "events" does not exist');
        },
        { budgetMs: 60_000, log: () => undefined, ...c },
      ),
    ).rejects.toThrow('does not exist');
    expect(calls).toBe(1);
  });

  it('tells unreachable from broken', () => {
    expect(isUnreachable(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isUnreachable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isUnreachable(new Error('password authentication failed for user "x"'))).toBe(false);
    expect(isUnreachable(new Error('syntax error at or near "selec"'))).toBe(false);
  });
});
