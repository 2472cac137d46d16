import { ErrorType, permanentFailure } from '../../workflows/errors';
import type { WriteIssue } from '../../workflows/gateway/writes';

/**
 * A write the gateway refuses, with the failure type and the issue paths (payload.lines.1.
 * accountId, ...). Activities turn it into a non-retryable ApplicationFailure; dry runs
 * return it as the validation result.
 */
export class GatewayRefusal extends Error {
  override readonly name = 'GatewayRefusal';
  constructor(
    readonly type: ErrorType,
    message: string,
    readonly issues: WriteIssue[] = [],
  ) {
    super(message);
  }
  toFailure() {
    return permanentFailure(this.type, this.message, { issues: this.issues });
  }
}

interface PgLikeError {
  code?: string;
  constraint?: string;
  message: string;
  cause?: unknown;
}

/** The PostgreSQL error under drizzle's wrapper, if any. */
export function pgError(err: unknown): PgLikeError | undefined {
  let e: unknown = err;
  for (let i = 0; i < 4 && e; i++) {
    const c = e as PgLikeError;
    if (typeof c.code === 'string' && /^[0-9A-Z]{5}$/.test(c.code)) return c;
    e = c.cause;
  }
  return undefined;
}

/** SQLSTATE class 22 and 54 errors: the value, not the database, is at fault. */
const DATA_ERRORS: Record<string, string> = {
  '22003': 'A number is out of the range the books can hold',
  '22001': 'A text is longer than the field allows',
  '22007': 'A date or time is not valid',
  '22008': 'A date or time is out of range',
  '22021': 'A text holds a byte sequence that is not valid',
  '22P02': 'A value has the wrong form',
  '22P05': 'A text holds a character the database cannot store',
  '54000': 'A value exceeds a database limit',
  '54001': 'A value is nested too deeply',
};

/** Database invariant violations the gateway reports as typed refusals (the DB is the backstop). */
export function refusalFromDb(err: unknown): GatewayRefusal | undefined {
  const pg = pgError(err);
  if (!pg) return undefined;
  const c = pg.constraint ?? '';
  if (pg.code === '23514' && c.startsWith('journal_entry_'))
    return new GatewayRefusal(ErrorType.UnbalancedEntry, pg.message);
  if (pg.code === '55000' && c === 'journal_entry_open_period')
    return new GatewayRefusal(ErrorType.PeriodClosed, pg.message);
  if (pg.code === '23505' && c === 'journal_entries_one_reversal')
    return new GatewayRefusal(
      ErrorType.AlreadyReversed,
      `The entry is already reversed (${pg.message})`,
    );
  if (pg.code === '23505' && c === 'journal_entries_org_idempotency')
    return new GatewayRefusal(
      ErrorType.IdempotencyConflict,
      `An entry already posted under this idempotency key (${pg.message})`,
    );
  if (pg.code === '23505' && c === 'bank_lines_entry_matched_once')
    return new GatewayRefusal(
      ErrorType.AlreadyMatched,
      `The entry is already matched to a bank line (${pg.message})`,
    );
  if (pg.code === '23505')
    return new GatewayRefusal(ErrorType.DuplicateEntity, `Already exists (${c}): ${pg.message}`);
  // Data the database cannot hold is a verdict on the input, never worth a retry.
  const range = DATA_ERRORS[pg.code ?? ''];
  if (range) return new GatewayRefusal(ErrorType.ValueOutOfRange, `${range} (${pg.message})`);
  if (pg.code === '23503')
    return new GatewayRefusal(
      ErrorType.UnknownEntity,
      `A referenced entity does not exist in this org (${c})`,
    );
  return undefined;
}
