/**
 * The gateway workflow's two arguments, read: the write (its size bounds, then its schema) and,
 * for a run continued from an earlier one of the same submission, the state it carries over.
 * A write that fails either check ends the run with a permanent InvalidWrite failure.
 */
import { type GatewayCarryOver, GatewayCarryOverSchema } from '../gateway.contract';
import { checkInputBounds } from '../input-bounds';
import { ErrorType, permanentFailure } from '../errors';
import { type GatewayWrite, formatIssues, parseWrite } from './writes';

export interface GatewayInput {
  write: GatewayWrite;
  /** A run continued from an earlier one of this submission: its state, not a new evaluation. */
  carry: GatewayCarryOver | null;
}

export function readGatewayInput(raw: unknown, carried: unknown): GatewayInput {
  const bounds = checkInputBounds(raw);
  if (!bounds.ok)
    throw permanentFailure(
      ErrorType.InvalidWrite,
      `Invalid write: ${formatIssues(bounds.issues)}`,
      {
        issues: bounds.issues,
      },
    );
  const parsed = parseWrite(raw);
  if (!parsed.ok)
    throw permanentFailure(
      ErrorType.InvalidWrite,
      `Invalid write: ${formatIssues(parsed.issues)}`,
      { issues: parsed.issues },
    );
  const write = parsed.write;
  const carry: GatewayCarryOver | null =
    carried === undefined ? null : GatewayCarryOverSchema.parse(carried);
  return { write, carry };
}
