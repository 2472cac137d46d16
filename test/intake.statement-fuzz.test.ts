// The statement importers under fuzzing: truncated files, wrong encodings, random bytes and huge
// inputs, on the project's own files (test/fixtures/statements).
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import {
  MAX_STATEMENT_BYTES,
  importStatementFile,
  type ImportStatementInput,
} from '../activities/intake/import-statement';
import {
  StatementImportErrorSchema,
  StatementSchema,
  checkStatement,
  type StatementImportResult,
} from '../activities/intake/statement';
import { OWN, failed, ok, own, walk } from './intake.fixtures';

const OWN_FILES = walk(OWN).map((p) => relative(OWN, p));
function expectClean(r: StatementImportResult, file: string) {
  if (r.ok) {
    for (const s of r.statements) expect(checkStatement(StatementSchema.parse(s))).toBeNull();
  } else {
    expect(StatementImportErrorSchema.parse(r.error).file).toBe(file);
    expect(r.error.message).not.toMatch(/unexpected parser failure/);
  }
}

describe('statement importers under fuzzing', () => {
  it.each(OWN_FILES.filter((f) => !f.includes('.wrong.')).map((f) => [f]))(
    '%s cut anywhere is refused, or (CSV, MT940 at a message end) is a clean prefix of the whole file',
    (rel) => {
      const full = importStatementFile(own(rel));
      const whole = ok(full);
      const bytes = readFileSync(join(OWN, rel));
      const lastContent = bytes.toString('latin1').trimEnd().length;
      // Every cut position, not a sample: the files are small and a rare bad cut is the point.
      let refused = 0;
      for (let cut = 0; cut < lastContent; cut++) {
        const r = importStatementFile({ ...own(rel), bytes: bytes.subarray(0, cut) });
        expectClean(r, rel);
        if (!r.ok) {
          refused++;
          continue;
        }
        // OFX and camt.053 are closed documents: any cut before their end must be refused.
        expect(rel.startsWith('ofx/') || rel.startsWith('camt/')).toBe(false);
        // What a cut CSV or MT940 still imports is whole rows or messages of the file, never a mangled line.
        const cutLines = r.statements.flatMap((s) => s.lines);
        const wholeLines = whole.flatMap((s) => s.lines);
        expect(cutLines).toEqual(wholeLines.slice(0, cutLines.length));
      }
      expect(refused).toBeGreaterThan(lastContent * 0.9);
      console.log(
        `intake fuzz: ${rel}: ${lastContent} cuts, ${refused} refused, ${lastContent - refused} imported whole rows/messages only`,
      );
    },
  );

  it('never throws on random bytes, and refuses them', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 4096 }), (bytes) => {
        const r = importStatementFile({ file: 'random.bin', bytes });
        expect(r.ok).toBe(false);
        expectClean(r, 'random.bin');
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a camt.053 whose XML prolog holds a NUL byte (found by the fuzz below) as malformed', () => {
    const bytes = Buffer.from(readFileSync(join(OWN, 'camt/jpy-statement.xml')));
    bytes[14] = 0;
    expect(failed(importStatementFile({ file: 'nul.xml', bytes }))).toEqual({
      code: 'Malformed',
      file: 'nul.xml',
      line: null,
      message: 'not well-formed XML: Pi Tag is not closed.',
    });
  });

  it('never throws when bytes of a real file are overwritten at random', () => {
    const files = OWN_FILES.map((f) => own(f));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: files.length - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 8,
        }),
        (i, edits) => {
          const input = files[i] as ImportStatementInput;
          const bytes = Buffer.from(input.bytes);
          for (const [pos, b] of edits) bytes[pos % bytes.length] = b;
          expectClean(importStatementFile({ ...input, bytes }), input.file);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('refuses a 20 MB input at once, by size', () => {
    const huge = Buffer.alloc(20 * 1024 * 1024, 'A');
    const t = Date.now();
    const e = failed(importStatementFile({ file: 'huge.ofx', bytes: huge }));
    // Reading 20 MB would take seconds; refusing by size takes ~1 ms (the bound allows a loaded CI).
    expect(Date.now() - t).toBeLessThan(500);
    expect(e).toEqual({
      code: 'TooLarge',
      file: 'huge.ofx',
      line: null,
      message: `the file is ${huge.length} bytes, the limit is ${MAX_STATEMENT_BYTES}`,
    });
  });

  it('imports a near-limit OFX of 40,000 lines in bounded time, and refuses it cut short just as fast', () => {
    const trn = (i: number) =>
      `<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240105<TRNAMT>-1.${String(i % 100).padStart(2, '0')}<FITID>F${i}<NAME>Payee ${i % 97}<MEMO>Line ${i}</STMTTRN>\n`;
    const body = Array.from({ length: 40000 }, (_, i) => trn(i)).join('');
    const total = Array.from({ length: 40000 }, (_, i) => 100 + (i % 100)).reduce(
      (a, b) => a + b,
      0,
    );
    const ofx = `OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nENCODING:USASCII\nCHARSET:1252\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>EUR<BANKACCTFROM><BANKID>1<ACCTID>2</BANKACCTFROM><BANKTRANLIST><DTSTART>20240101<DTEND>20240131\n${body}</BANKTRANLIST><LEDGERBAL><BALAMT>-${Math.floor(total / 100)}.${String(total % 100).padStart(2, '0')}<DTASOF>20240131</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n`;
    const bytes = Buffer.from(ofx);
    expect(bytes.length).toBeGreaterThan(4_000_000);
    let t = Date.now();
    const [s] = ok(importStatementFile({ file: 'big.ofx', bytes }));
    const importMs = Date.now() - t;
    expect(s?.lines).toHaveLength(40000);
    expect(s?.closingBalance?.amountMinor).toBe(`-${total}`);
    t = Date.now();
    const e = failed(
      importStatementFile({ file: 'big.ofx', bytes: bytes.subarray(0, bytes.length - 300) }),
    );
    expect(e.code).toBe('Malformed');
    expect(Date.now() - t).toBeLessThan(60000);
    // Generous: the shared 2-core machine runs a dozen test suites at once (about 1 s when idle).
    expect(importMs).toBeLessThan(60000);
    console.log(
      `intake fuzz: ${bytes.length} byte OFX with 40000 lines imported in ${importMs} ms`,
    );
  });
});
