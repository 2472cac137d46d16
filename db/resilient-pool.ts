import { Pool } from 'pg';

/**
 * A pg pool that a lost server cannot crash the process through. pg-pool listens for errors
 * only on idle clients; a client checked out (a transaction, a migration, a query in flight)
 * has no listener, and an 'error' it emits when PostgreSQL goes away ("terminating connection
 * due to administrator command") is an unhandled event that kills node. Here every client
 * gets its own listener: the query in flight fails (its caller or activity retries) and the
 * pool replaces the broken client.
 */
export function resilientPool(connectionString: string, max: number): Pool {
  const pool = new Pool({ connectionString, max });
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}
