import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ImportStatementInput } from '../activities/intake/import-statement';
import type { Statement, StatementImportResult } from '../activities/intake/statement';

/** The project's own statement files, and what the intake.statement-*.test.ts files share. */
export const OWN = join(__dirname, 'fixtures', 'statements');
export const SYNCED_ACCOUNT = { iban: null, number: 'connector-account-1' };

export function own(rel: string): ImportStatementInput {
  return {
    file: rel,
    bytes: readFileSync(join(OWN, rel)),
    csvOptions: { account: SYNCED_ACCOUNT },
  };
}
export function ok(r: StatementImportResult): Statement[] {
  if (!r.ok) throw new Error(`expected an import, got ${JSON.stringify(r.error)}`);
  return r.statements;
}
export function failed(r: StatementImportResult) {
  if (r.ok) throw new Error('expected a refusal, got an import');
  return r.error;
}

/** Every file under dir, in name order. */
export function walk(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? walk(p) : [p];
    });
}
