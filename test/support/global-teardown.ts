import type { EmbeddedPostgres } from '../../db/embedded-postgres';
import type { RunningDevServer } from '../../scripts/lib/dev-server';

export default async function globalTeardown(): Promise<void> {
  const g = globalThis as Record<string, unknown>;
  await (g.__CS_DEV_SERVER__ as RunningDevServer | undefined)?.stop();
  await (g.__CS_POSTGRES__ as EmbeddedPostgres | undefined)?.stop();
}
