import { Pool } from 'pg';
import { startEmbeddedDbProcess, type EmbeddedDbProcess } from './support/embedded-db-process';

/**
 * The embedded server shares one PGlite session between connections. Parameterised queries
 * (extended protocol) from many connections, with transactions in between, must neither
 * mix statements nor let another client's statement into an open transaction.
 */
describe('embedded wire server under concurrent connections', () => {
  let server: EmbeddedDbProcess | undefined;
  let url: string;
  const pools: Pool[] = [];

  beforeAll(async () => {
    server = await startEmbeddedDbProcess();
    url = server.url;
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
    server?.stop();
  });

  it('keeps 400 interleaved statements and transactions from two pools apart', async () => {
    const a = new Pool({ connectionString: url, max: 6 });
    const b = new Pool({ connectionString: url, max: 6 });
    pools.push(a, b);
    await a.query('create table t (id int primary key, v text)');
    const jobs: Promise<unknown>[] = [];
    for (let i = 0; i < 400; i++) {
      const pool = i % 2 ? a : b;
      if (i % 10 === 0) {
        jobs.push(
          (async () => {
            const c = await pool.connect();
            try {
              await c.query('begin');
              await c.query('insert into t values ($1, $2)', [i, `tx${i}`]);
              await c.query('select pg_sleep(0.001)');
              await c.query('insert into t values ($1, $2)', [i + 100000, 'tx']);
              await c.query('commit');
            } finally {
              c.release();
            }
          })(),
        );
      } else {
        jobs.push(
          pool
            .query('insert into t values ($1, $2)', [i, `v${i}`])
            .then(() => pool.query<{ v: string }>('select v from t where id = $1', [i]))
            .then((r) => expect(r.rows).toEqual([{ v: `v${i}` }])),
        );
      }
    }
    const results = await Promise.allSettled(jobs);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect((await a.query('select count(*)::int as n from t')).rows).toEqual([{ n: 440 }]);
  });

  it('rolls back a failed transaction completely, and a client that disconnects mid-transaction', async () => {
    const a = new Pool({ connectionString: url, max: 2 });
    pools.push(a);
    await a.query('create table u (id int primary key)');
    const c = await a.connect();
    await c.query('begin');
    await c.query('insert into u values (1)');
    await expect(c.query('insert into u values (1)')).rejects.toThrow(/duplicate key/);
    await c.query('rollback');
    c.release();
    const gone = new Pool({ connectionString: url, max: 1 });
    const g = await gone.connect();
    await g.query('begin');
    await g.query('insert into u values (2)');
    g.release(true); // destroys the connection without COMMIT
    await gone.end();
    expect((await a.query('select count(*)::int as n from u')).rows).toEqual([{ n: 0 }]);
  });
});
