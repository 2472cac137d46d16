import type { RunningDevServer } from '../../scripts/lib/dev-server';

export default async function globalTeardown(): Promise<void> {
  const server = (globalThis as Record<string, unknown>).__CS_DEV_SERVER__ as
    RunningDevServer | undefined;
  await server?.stop();
}
