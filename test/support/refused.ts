import type { Client as PgClient } from 'pg';

/** What PostgreSQL says when it refuses a statement. */
export interface PgError {
  code: string;
  message: string;
  constraint?: string;
}

/**
 * Runs the statements in one transaction, as an attacker holding `client`'s role would, and
 * returns the error that stopped them (rolled back). Statements that all succeed fail the test.
 */
export async function refused(client: PgClient, statements: string[]): Promise<PgError> {
  await client.query('begin');
  try {
    for (const s of statements) await client.query(s);
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    return err as PgError;
  }
  throw new Error(`statements succeeded: ${statements.join('; ')}`);
}
