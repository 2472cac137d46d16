import { XMLParser, XMLValidator } from 'fast-xml-parser';
import {
  StatementParseError,
  decimalToMinor,
  finishStatement,
  lineIndex,
  negateMinor,
  requireCurrency,
  type Balance,
  type DraftLine,
  type Statement,
} from './statement';
import { decodeText } from './text-decoding';

/**
 * ISO 20022 camt.053 (bank-to-customer statement), any version (001.02 … 001.08 differ in
 * where a few elements sit, e.g. `Sts` as text or `Sts/Cd`). Parsed with fast-xml-parser
 * after its validator has accepted the document, so a truncated or malformed file is refused
 * with the validator's line before anything is read.
 */

type XNode = { [key: string]: unknown };

const ARRAYS = new Set(['Stmt', 'Bal', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd', 'AdrLine']);
const META = XMLParser.getMetaDataSymbol() as unknown as symbol;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  captureMetaData: true,
  isArray: (name) => ARRAYS.has(name),
});

export function looksLikeCamt053(head: string): boolean {
  return /camt\.053|<(\w+:)?BkToCstmrStmt[\s>]/.test(head);
}

function obj(v: unknown): XNode | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as XNode) : undefined;
}
function at(n: unknown, ...path: string[]): unknown {
  let cur: unknown = n;
  for (const p of path) {
    const o = obj(Array.isArray(cur) ? cur[0] : cur);
    if (!o) return undefined;
    cur = o[p];
  }
  return cur;
}
function arr(v: unknown): unknown[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}
/** Text of an element: a string, or `#text` of an element with attributes. */
function text(v: unknown): string | null {
  const x = Array.isArray(v) ? v[0] : v;
  if (typeof x === 'string') return x.trim() || null;
  const o = obj(x);
  if (o && typeof o['#text'] === 'string') return o['#text'].trim() || null;
  return null;
}

export function parseCamt053(bytes: Uint8Array): Statement[] {
  const head = Buffer.from(bytes.subarray(0, 512)).toString('latin1');
  const enc = /<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/i.exec(head)?.[1] ?? 'utf-8';
  const xml = decodeText(bytes, enc);
  // camt.053 never needs a DTD; refusing one rules out entity-expansion bombs.
  const dtd = /<!(DOCTYPE|ENTITY)/i.exec(xml);
  if (dtd)
    throw new StatementParseError(
      'Malformed',
      lineIndex(xml)(dtd.index),
      'a DTD or entity declaration is not allowed in camt.053',
    );
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    throw new StatementParseError(
      'Malformed',
      valid.err.line || null,
      `not well-formed XML: ${valid.err.msg}`,
    );
  }
  const lineOf = lineIndex(xml);
  const lineFor = (n: unknown, fallback: number): number => {
    const o = obj(Array.isArray(n) ? n[0] : n) as Record<symbol, unknown> | undefined;
    const idx = (o?.[META] as { startIndex?: unknown } | undefined)?.startIndex;
    return typeof idx === 'number' ? lineOf(idx) : fallback;
  };
  let doc: XNode;
  try {
    doc = parser.parse(xml) as XNode;
  } catch (err) {
    // The validator and the parser disagree on a few broken prologs (a NUL in `<?xml`).
    throw new StatementParseError(
      'Malformed',
      null,
      `not well-formed XML: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const root = obj(doc['Document']);
  const stmts = arr(at(root, 'BkToCstmrStmt', 'Stmt'));
  if (!root || !obj(root['BkToCstmrStmt']))
    throw new StatementParseError(
      'Malformed',
      null,
      'not a camt.053 document: no Document/BkToCstmrStmt',
    );
  if (stmts.length === 0)
    throw new StatementParseError(
      'NoStatement',
      lineFor(root['BkToCstmrStmt'], 1),
      'BkToCstmrStmt holds no Stmt',
    );
  return stmts.map((s) => statementFrom(s, lineFor(s, 1), lineFor));
}

function isoDate(v: unknown, line: number, what: string): string | null {
  const raw = text(at(v, 'Dt')) ?? text(at(v, 'DtTm'));
  if (raw === null) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(raw);
  const iso = m ? `${m[1]}-${m[2]}-${m[3]}` : '';
  if (
    !m ||
    Number.isNaN(Date.parse(`${iso}T00:00:00Z`)) ||
    new Date(`${iso}T00:00:00Z`).toISOString().slice(0, 10) !== iso
  )
    throw new StatementParseError(
      'InvalidDate',
      line,
      `${what} "${raw.slice(0, 40)}" is not a date`,
    );
  return iso;
}

function signedAmount(
  node: unknown,
  line: number,
  what: string,
): { amountMinor: string; currency: string } {
  const amt = at(node, 'Amt');
  const raw = text(amt);
  const ccyRaw = obj(Array.isArray(amt) ? amt[0] : amt)?.['@_Ccy'];
  if (raw === null) throw new StatementParseError('MissingField', line, `${what} has no Amt`);
  if (typeof ccyRaw !== 'string')
    throw new StatementParseError('MissingField', line, `${what} Amt has no Ccy`);
  const currency = requireCurrency(ccyRaw, line, `${what} Amt/@Ccy`);
  if (raw.startsWith('-') || raw.startsWith('+'))
    throw new StatementParseError(
      'InvalidAmount',
      line,
      `${what} Amt "${raw}" must be unsigned (the sign is CdtDbtInd)`,
    );
  const minor = decimalToMinor(raw, currency, { line, what: `${what} Amt` });
  const ind = text(at(node, 'CdtDbtInd'));
  if (ind !== 'CRDT' && ind !== 'DBIT')
    throw new StatementParseError(
      'MissingField',
      line,
      `${what} has CdtDbtInd "${ind ?? ''}", expected CRDT or DBIT`,
    );
  return { amountMinor: ind === 'DBIT' ? negateMinor(minor) : minor, currency };
}

function statementFrom(
  s: unknown,
  line: number,
  lineFor: (n: unknown, f: number) => number,
): Statement {
  const acct = at(s, 'Acct');
  const iban = text(at(acct, 'Id', 'IBAN'));
  const other = text(at(acct, 'Id', 'Othr', 'Id'));
  if (!iban && !other)
    throw new StatementParseError(
      'MissingField',
      lineFor(acct, line),
      'the statement account has no IBAN or Othr/Id',
    );
  const balances = arr(at(s, 'Bal'));
  const entries = arr(at(s, 'Ntry'));
  let opening: Balance | null = null;
  let closing: Balance | null = null;
  for (const b of balances) {
    const bl = lineFor(b, line);
    const code = text(at(b, 'Tp', 'CdOrPrtry', 'Cd')) ?? text(at(b, 'Tp', 'CdOrPrtry', 'Prtry'));
    if (code !== 'OPBD' && code !== 'PRCD' && code !== 'CLBD') continue;
    const money = signedAmount(b, bl, `balance ${code}`);
    const bal: Balance = {
      ...money,
      date: isoDate(at(b, 'Dt'), bl, `balance ${code} date`),
      sourceLine: bl,
    };
    if (code === 'CLBD') {
      if (closing)
        throw new StatementParseError(
          'Malformed',
          bl,
          'the statement has two closing (CLBD) balances',
        );
      closing = bal;
    } else {
      // OPBD is the opening balance; PRCD (previous closing) stands in for it when OPBD is absent.
      if (opening && code === 'PRCD') continue;
      opening = bal;
    }
  }
  const ccyText = text(at(acct, 'Ccy'));
  const currency = ccyText
    ? requireCurrency(ccyText, lineFor(acct, line), 'Acct/Ccy')
    : (opening?.currency ??
      closing?.currency ??
      (entries[0] ? signedAmount(entries[0], line, 'entry').currency : null));
  if (!currency)
    throw new StatementParseError(
      'MissingField',
      lineFor(acct, line),
      'the statement names no currency (Acct/Ccy)',
    );
  const lines: DraftLine[] = entries.map((e) => {
    const el = lineFor(e, line);
    const status = text(at(e, 'Sts')) ?? text(at(e, 'Sts', 'Cd'));
    if (status !== null && status !== 'BOOK')
      throw new StatementParseError(
        'Malformed',
        el,
        `entry status ${status}: a camt.053 statement carries booked entries only`,
      );
    const money = signedAmount(e, el, 'entry');
    const bookingDate = isoDate(at(e, 'BookgDt'), el, 'BookgDt');
    if (!bookingDate)
      throw new StatementParseError('MissingField', el, 'an entry has no booking date (BookgDt)');
    const tx = at(e, 'NtryDtls', 'TxDtls');
    const credit = !money.amountMinor.startsWith('-');
    // The other party: the debtor of a credit, the creditor of a debit.
    const party = credit ? 'Dbtr' : 'Cdtr';
    const partyNode = at(tx, 'RltdPties', party);
    const name = text(at(partyNode, 'Nm')) ?? text(at(partyNode, 'Pty', 'Nm'));
    const account =
      text(at(tx, 'RltdPties', `${party}Acct`, 'Id', 'IBAN')) ??
      text(at(tx, 'RltdPties', `${party}Acct`, 'Id', 'Othr', 'Id'));
    const ustrd = arr(at(tx, 'RmtInf', 'Ustrd'))
      .map((u) => text(u))
      .filter((u): u is string => u !== null);
    const description =
      ustrd.join(' ') || text(at(e, 'AddtlNtryInf')) || text(at(tx, 'AddtlTxInf')) || name || '';
    const e2e = text(at(tx, 'Refs', 'EndToEndId'));
    const reference =
      text(at(tx, 'RmtInf', 'Strd', 'CdtrRefInf', 'Ref')) ??
      (e2e && e2e !== 'NOTPROVIDED' ? e2e : null);
    return {
      sourceLine: el,
      bookingDate,
      valueDate: isoDate(at(e, 'ValDt'), el, 'ValDt'),
      amountMinor: money.amountMinor,
      currency: money.currency,
      counterpartyName: name,
      counterpartyAccount: account,
      description,
      reference,
      bankTransactionId:
        text(at(e, 'AcctSvcrRef')) ?? text(at(tx, 'Refs', 'AcctSvcrRef')) ?? text(at(e, 'NtryRef')),
    };
  });
  return finishStatement({
    format: 'camt053',
    statementId: text(at(s, 'Id')),
    account: {
      iban,
      number: iban ? null : other,
      bankId:
        text(at(acct, 'Svcr', 'FinInstnId', 'BIC')) ??
        text(at(acct, 'Svcr', 'FinInstnId', 'BICFI')),
      currency,
    },
    period: {
      from: isoDate({ Dt: at(s, 'FrToDt', 'FrDtTm') }, line, 'FrDtTm'),
      to: isoDate({ Dt: at(s, 'FrToDt', 'ToDtTm') }, line, 'ToDtTm'),
    },
    openingBalance: opening,
    closingBalance: closing,
    lines,
  });
}
