import { Client as PgClient } from 'pg';
import { resilientPool } from '../db/resilient-pool';
import { adminUrl } from './support/database';

/**
 * A worker migrating or in a transaction when PostgreSQL goes away must see a failed query, not
 * die of an unhandled 'error' event (CI's fault suite once lost a worker that way: it was
 * restarted into a PostgreSQL restart and crashed at `node:events`).
 */
describe('resilientPool', () => {
  it('survives the server terminating a checked-out client, and serves the next query', async () => {
    const pool = resilientPool(adminUrl(), 1);
    const admin = new PgClient({ connectionString: adminUrl() });
    await admin.connect();
    try {
      const held = await pool.connect();
      const { rows } = await held.query<{ pid: number }>('select pg_backend_pid() as pid');
      // No listener of the test's own: with none from the pool, the client's 'error' event is
      // thrown as an uncaught exception and fails this test.
      const ended = new Promise<void>((resolve) => held.once('end', () => resolve()));
      await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
      await ended;
      await expect(held.query('select 1')).rejects.toThrow();
      held.release(true);
      const again = await pool.query<{ one: number }>('select 1 as one');
      expect(again.rows[0]?.one).toBe(1);
    } finally {
      await admin.end();
      await pool.end();
    }
  });
});
