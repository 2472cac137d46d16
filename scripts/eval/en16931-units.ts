import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runEn16931Rules } from '../../activities/bills/einvoice/en16931-validation';

/**
 * The EN 16931 rules' own unit test sets (`validation/unit-ubl/*.xml`, the CEN project's
 * `testSet` files): each `<test>` holds an invoice and asserts the `<success>` or `<error>` of
 * a rule. Run through the same validator the bill processor uses; `every` > 1 takes every
 * n-th test (the CI sample), 1 runs them all (`npm run eval -- en16931-units`).
 */
export interface UnitSetReport {
  files: number;
  tests: number;
  asExpected: number;
  failures: { file: string; expected: string[]; found: string[] }[];
  ms: number;
}

export function runEn16931UnitSets(dir: string, every = 1): UnitSetReport {
  const started = Date.now();
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.xml'))
    .sort();
  let tests = 0;
  let asExpected = 0;
  let seen = 0;
  const failures: UnitSetReport['failures'] = [];
  for (const file of files) {
    const text = readFileSync(join(dir, file), 'utf8');
    for (const m of text.matchAll(/<test>([\s\S]*?)<\/test>/g)) {
      if (seen++ % every !== 0) continue;
      const body = m[1]!;
      const expected = [...body.matchAll(/<(success|error)>([^<]+)<\/\1>/g)].map(
        (e) => [e[1] as 'success' | 'error', e[2]!.trim()] as const,
      );
      const doc = /<(Invoice|CreditNote)\b[\s\S]*<\/\1>/.exec(body);
      if (!doc || expected.length === 0) continue;
      tests++;
      const found = new Set(
        runEn16931Rules('ubl', `<?xml version="1.0" encoding="UTF-8"?>${doc[0]}`).map((f) => f.id),
      );
      if (expected.every(([kind, id]) => (kind === 'success') !== found.has(id))) asExpected++;
      else
        failures.push({
          file,
          expected: expected.map(([k, id]) => `${k} ${id}`),
          found: [...found],
        });
    }
  }
  return { files: files.length, tests, asExpected, failures, ms: Date.now() - started };
}
