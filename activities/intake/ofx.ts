import {
  StatementParseError,
  decimalToMinor,
  finishStatement,
  requireCurrency,
  requireDate,
  type Balance,
  type DraftLine,
  type Statement,
} from './statement';
import { decodeText } from './text-decoding';

/**
 * OFX bank and credit-card statements, both SGML 1.x (leaf elements without end tags, a
 * colon header) and XML 2.x (a `<?OFX ?>` processing instruction). One hand-written
 * tokenizer reads both: an element followed by text is a leaf and closes itself at the next
 * tag; every aggregate must be closed, so a truncated file is refused, not half read.
 */

interface OfxNode {
  name: string;
  line: number;
  text: string | null;
  children: OfxNode[];
}

export function looksLikeOfx(head: string): boolean {
  return /OFXHEADER\s*[:=]/i.test(head) || /<OFX\s*>/i.test(head);
}

function headerEncoding(bytes: Uint8Array): string {
  const head = Buffer.from(bytes.subarray(0, 2048)).toString('latin1');
  const xml = /<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/i.exec(head);
  if (xml?.[1]) return xml[1];
  const enc = /^\s*ENCODING:\s*(\S+)/im.exec(head)?.[1];
  const charset = /^\s*CHARSET:\s*(\S+)/im.exec(head)?.[1];
  if (enc && /utf-?8/i.test(enc)) return 'utf-8';
  if (charset && /^\d+$/.test(charset)) return `windows-${charset}`;
  if (charset && !/^none$/i.test(charset)) return charset;
  return 'utf-8';
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};
function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e.startsWith('#x') || e.startsWith('#X'))
      return String.fromCodePoint(parseInt(e.slice(2), 16) || 0xfffd);
    if (e.startsWith('#')) return String.fromCodePoint(Number(e.slice(1)) || 0xfffd);
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

function parseTree(text: string, bodyStart: number): OfxNode {
  const root: OfxNode = { name: '#root', line: 1, text: null, children: [] };
  const stack: OfxNode[] = [root];
  const token =
    /<!\[CDATA\[([\s\S]*?)\]\]>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<(\/?)([A-Za-z][A-Za-z0-9._-]*)\s*>|([^<]+)|(<)/g;
  token.lastIndex = bodyStart;
  let line = 1;
  for (let i = 0; i < bodyStart; i++) if (text.charCodeAt(i) === 10) line++;
  let m: RegExpExecArray | null;
  const top = () => stack[stack.length - 1] as OfxNode;
  const isOpenLeaf = (n: OfxNode) => n.text !== null && n.children.length === 0 && n !== root;
  while ((m = token.exec(text)) !== null) {
    const tokLine = line;
    for (let i = m.index; i < token.lastIndex; i++) if (text.charCodeAt(i) === 10) line++;
    if (m[5] !== undefined) {
      throw new StatementParseError('Malformed', tokLine, `a "<" that does not start a tag`);
    }
    if (m[1] !== undefined || m[4] !== undefined) {
      const raw = m[1] !== undefined ? m[1] : decodeEntities(m[4] ?? '');
      const value = m[1] !== undefined ? raw : raw.trim();
      if (value === '' && m[1] === undefined) continue;
      const node = top();
      if (node === root || node.children.length > 0) {
        throw new StatementParseError(
          'Malformed',
          tokLine,
          `text "${value.slice(0, 30)}" outside a leaf element${node === root ? '' : ` (inside <${node.name}>)`}`,
        );
      }
      node.text = (node.text ?? '') + value;
      continue;
    }
    if (m[3] === undefined) continue; // comment or processing instruction
    const name = (m[3] ?? '').toUpperCase();
    if (m[2] === '/') {
      while (top() !== root && top().name !== name && isOpenLeaf(top())) stack.pop();
      if (top().name !== name) {
        throw new StatementParseError(
          'Malformed',
          tokLine,
          `</${name}> does not close the open <${top().name}>${top() === root ? '' : ` (line ${top().line})`}`,
        );
      }
      stack.pop();
      continue;
    }
    if (isOpenLeaf(top())) stack.pop();
    const node: OfxNode = { name, line: tokLine, text: null, children: [] };
    top().children.push(node);
    stack.push(node);
    if (stack.length > 64)
      throw new StatementParseError('Malformed', tokLine, 'elements nested too deeply');
  }
  while (stack.length > 1 && isOpenLeaf(top())) stack.pop();
  if (stack.length > 1) {
    const open = top();
    throw new StatementParseError(
      'Malformed',
      open.line,
      `<${open.name}> is never closed: the file is truncated or malformed`,
    );
  }
  return root;
}

const child = (n: OfxNode, name: string) => n.children.find((c) => c.name === name);
const children = (n: OfxNode, name: string) => n.children.filter((c) => c.name === name);
function findAll(n: OfxNode, name: string, out: OfxNode[] = []): OfxNode[] {
  for (const c of n.children) {
    if (c.name === name) out.push(c);
    else findAll(c, name, out);
  }
  return out;
}
const textOf = (n: OfxNode | undefined): string | null => {
  const t = n?.text?.trim();
  return t ? t : null;
};

function ofxDate(node: OfxNode | undefined, what: string): string | null {
  const raw = textOf(node);
  if (raw === null || node === undefined) return null;
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2}(\d{2}(\d{2}([.:]\d{1,3})?)?)?)?\s*(\[[^\]]*\])?$/.exec(
    raw,
  );
  if (!m)
    throw new StatementParseError(
      'InvalidDate',
      node.line,
      `${what} "${raw.slice(0, 40)}" is not an OFX date`,
    );
  return requireDate(Number(m[1]), Number(m[2]), Number(m[3]), node.line, what, raw);
}

function ofxAmount(node: OfxNode, currency: string, what: string): string {
  const raw = textOf(node) ?? '';
  // Some banks write a decimal comma; OFX has no thousands separators, so one comma is the point.
  const normal = /^[+-]?\d*,\d+$/.test(raw) ? raw.replace(',', '.') : raw;
  return decimalToMinor(normal, currency, { line: node.line, what });
}

function statusError(trnrs: OfxNode): string | null {
  const status = child(trnrs, 'STATUS');
  if (!status) return null;
  const severity = textOf(child(status, 'SEVERITY'));
  const code = textOf(child(status, 'CODE'));
  if (severity?.toUpperCase() === 'ERROR') {
    return `the bank answered with status ${code ?? '?'} ${severity ?? ''}: ${textOf(child(status, 'MESSAGE')) ?? 'no message'}`;
  }
  return null;
}

function balance(node: OfxNode | undefined, currency: string, what: string): Balance | null {
  if (!node) return null;
  const amount = child(node, 'BALAMT');
  const asOf = child(node, 'DTASOF');
  if (textOf(amount) === null) {
    // An entirely empty balance aggregate says nothing; a dated balance without an amount is broken.
    if (textOf(asOf) === null) return null;
    throw new StatementParseError(
      'MissingField',
      (amount ?? node).line,
      `${what} has a date but no amount (BALAMT)`,
    );
  }
  return {
    amountMinor: ofxAmount(amount as OfxNode, currency, `${what} BALAMT`),
    currency,
    date: ofxDate(asOf, `${what} DTASOF`),
    sourceLine: node.line,
  };
}

function statementFrom(stmtrs: OfxNode, trnrs: OfxNode | undefined): Statement {
  const acct = child(stmtrs, 'BANKACCTFROM') ?? child(stmtrs, 'CCACCTFROM');
  if (!acct)
    throw new StatementParseError(
      'MissingField',
      stmtrs.line,
      `<${stmtrs.name}> has no BANKACCTFROM/CCACCTFROM`,
    );
  const number = textOf(child(acct, 'ACCTID'));
  if (!number)
    throw new StatementParseError('MissingField', acct.line, 'the account has no ACCTID');
  const tranList = child(stmtrs, 'BANKTRANLIST');
  const trns = tranList ? children(tranList, 'STMTTRN') : [];
  let curdef = textOf(child(stmtrs, 'CURDEF'));
  if (curdef === null) {
    // No CURDEF: the lines' own currency, when they all name the same one.
    const syms = new Set(trns.map((t) => textOf(child(child(t, 'CURRENCY') ?? t, 'CURSYM')) ?? ''));
    const [only] = [...syms];
    if (syms.size !== 1 || !only)
      throw new StatementParseError(
        'MissingField',
        stmtrs.line,
        'the statement names no currency (CURDEF)',
      );
    curdef = only;
  }
  const currency = requireCurrency(curdef, child(stmtrs, 'CURDEF')?.line ?? stmtrs.line, 'CURDEF');
  const lines: DraftLine[] = trns.map((t) => {
    const posted = child(t, 'DTPOSTED');
    const bookingDate = ofxDate(posted, 'DTPOSTED');
    if (!bookingDate)
      throw new StatementParseError(
        'MissingField',
        (posted ?? t).line,
        'a transaction has no posting date (DTPOSTED)',
      );
    const amt = child(t, 'TRNAMT');
    if (!amt || textOf(amt) === null)
      throw new StatementParseError(
        'MissingField',
        (amt ?? t).line,
        'a transaction has no amount (TRNAMT)',
      );
    const cur = child(t, 'CURRENCY') ?? child(t, 'ORIGCURRENCY');
    const lineCurrency = cur
      ? requireCurrency(textOf(child(cur, 'CURSYM')) ?? '', cur.line, 'CURSYM')
      : currency;
    const payee = child(t, 'PAYEE');
    const name = textOf(child(t, 'NAME')) ?? (payee ? textOf(child(payee, 'NAME')) : null);
    const memo = textOf(child(t, 'MEMO'));
    const to = child(t, 'BANKACCTTO') ?? child(t, 'CCACCTTO');
    return {
      sourceLine: t.line,
      bookingDate,
      valueDate:
        ofxDate(child(t, 'DTAVAIL'), 'DTAVAIL') ?? ofxDate(child(t, 'VALUEDATE'), 'VALUEDATE'),
      amountMinor: ofxAmount(amt, lineCurrency, 'TRNAMT'),
      currency: lineCurrency,
      counterpartyName: name,
      counterpartyAccount: to ? textOf(child(to, 'ACCTID')) : null,
      description:
        [name, memo].filter((x): x is string => x !== null && x !== '').join(' — ') ||
        (textOf(child(t, 'TRNTYPE')) ?? ''),
      reference: textOf(child(t, 'REFNUM')) ?? textOf(child(t, 'CHECKNUM')),
      bankTransactionId: textOf(child(t, 'FITID')),
    };
  });
  return finishStatement({
    format: 'ofx',
    statementId: trnrs ? textOf(child(trnrs, 'TRNUID')) : null,
    account: { iban: null, number, bankId: textOf(child(acct, 'BANKID')), currency },
    period: {
      from: tranList ? ofxDate(child(tranList, 'DTSTART'), 'DTSTART') : null,
      to: tranList ? ofxDate(child(tranList, 'DTEND'), 'DTEND') : null,
    },
    openingBalance: null,
    closingBalance: balance(child(stmtrs, 'LEDGERBAL'), currency, 'LEDGERBAL'),
    lines,
  });
}

/** Parses every bank and credit-card statement in an OFX file. */
export function parseOfx(bytes: Uint8Array): Statement[] {
  const text = decodeText(bytes, headerEncoding(bytes));
  const start = text.search(/<OFX\s*>/i);
  if (start < 0) throw new StatementParseError('Malformed', null, 'no <OFX> element');
  const root = parseTree(text, start);
  const ofx = child(root, 'OFX');
  if (!ofx) throw new StatementParseError('Malformed', null, 'no <OFX> element');
  const out: Statement[] = [];
  for (const trnrs of [...findAll(ofx, 'STMTTRNRS'), ...findAll(ofx, 'CCSTMTTRNRS')]) {
    const err = statusError(trnrs);
    const rs = child(trnrs, 'STMTRS') ?? child(trnrs, 'CCSTMTRS');
    if (err) throw new StatementParseError('BankError', trnrs.line, err);
    if (rs) out.push(statementFrom(rs, trnrs));
  }
  if (out.length === 0) {
    // Statements outside a transaction wrapper (some exports omit it).
    for (const rs of [...findAll(ofx, 'STMTRS'), ...findAll(ofx, 'CCSTMTRS')])
      out.push(statementFrom(rs, undefined));
  }
  if (out.length === 0)
    throw new StatementParseError(
      'NoStatement',
      ofx.line,
      'the file holds no bank or credit-card statement',
    );
  return out;
}
