#!/usr/bin/env -S npx tsx
import { CommanderError } from 'commander';
import { ConfigError } from '../config/env';
import { AuthenticationError, InvalidRequestError, OperatorKeyError } from './errors';
import { buildProgram } from './program';

/**
 * `npm run cli -- <command>` (bin `countersign`). Exit codes: 0 done, 1 failed (or a replay
 * found a determinism violation, a retried event did not complete), 2 bad arguments or
 * credentials (an operator command without an owner's or admin's key: OperatorKeyError), 3 a broken audit chain.
 */
buildProgram()
  .parseAsync(process.argv)
  .catch((err: unknown) => {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode === 0 ? 0 : 2;
      return;
    }
    console.error(err instanceof Error ? `${err.name}: ${err.message}` : err);
    process.exitCode =
      err instanceof InvalidRequestError ||
      err instanceof AuthenticationError ||
      err instanceof OperatorKeyError ||
      err instanceof ConfigError
        ? 2
        : 1;
  });
