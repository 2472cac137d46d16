import {
  StatementParseError,
  decimalToMinor,
  finishStatement,
  negateMinor,
  requireCurrency,
  requireDate,
  type Balance,
  type DraftLine,
  type Statement,
} from './statement';
import { decodeText } from './text-decoding';

/**
 * SWIFT MT940 customer statements, with or without the `{1:}{2:}{4:` envelope. Each statement
 * runs from `:20:` to its closing balance; `:61:` is a line, the `:86:` after it the line's
 * information (German banks' `?00`…`?63` sub-fields are read; other banks' free text is kept).
 * `:25:`, an opening (`:60F:`/`:60M:`) and a closing (`:62F:`/`:62M:`) balance are mandatory.
 */

export interface Mt940Field {
  tag: string;
  value: string;
  line: number;
}

export function looksLikeMt940(head: string): boolean {
  return (
    /(^|\n)\s*:20:/.test(head) || /\{4:\s*\r?\n?:20:/.test(head) || /^\s*:\d{2}[A-Z]?:/.test(head)
  );
}

/** Splits MT940 text into its tagged fields, joining continuation lines with "\n". */
export function readMt940Fields(text: string): Mt940Field[] {
  const fields: Mt940Field[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  let current: Mt940Field | null = null;
  // An enveloped message's text block `{4:` must be closed by `-}`; an open one means a cut file.
  let openBlock: number | null = null;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    const lineNo = i + 1;
    // SWIFT envelope blocks and the message terminator carry no statement data.
    const headless = raw.replace(/^(\{[1-3]:[^}]*\})+/, '');
    if (headless.startsWith('{4:')) openBlock = lineNo;
    const body = headless.replace(/^\{4:/, '');
    if (/^-\}?\s*$/.test(body) || /^\{5:/.test(body) || body.trim() === '') {
      if (/^-/.test(body)) current = null;
      if (/^-\}/.test(body)) openBlock = null;
      continue;
    }
    const m = /^:(\d{2}[A-Z]?):(.*)$/.exec(body);
    if (m) {
      current = { tag: m[1] ?? '', value: m[2] ?? '', line: lineNo };
      fields.push(current);
    } else if (current) {
      current.value += `\n${body}`;
    } else {
      throw new StatementParseError(
        'Malformed',
        lineNo,
        `"${body.slice(0, 30)}" is not an MT940 field (expected :NN:)`,
      );
    }
  }
  if (openBlock !== null)
    throw new StatementParseError(
      'Malformed',
      openBlock,
      'the message block {4: opened here is never closed by -}: the file is cut short',
    );
  return fields;
}

/** `C070903EUR1234718,36` → a signed balance. */
export function parseMt940Balance(f: Mt940Field): Balance {
  const m = /^([DC])(\d{2})(\d{2})(\d{2})([A-Z]{3})(\d[\d,]*)$/.exec(f.value.trim());
  if (!m)
    throw new StatementParseError(
      'Malformed',
      f.line,
      `:${f.tag}: "${f.value.slice(0, 40)}" is not a balance (D/C, YYMMDD, currency, amount)`,
    );
  const currency = requireCurrency(m[5] ?? '', f.line, `:${f.tag}: currency`);
  const amount = m[6] ?? '';
  if ((amount.match(/,/g) ?? []).length !== 1)
    throw new StatementParseError(
      'InvalidAmount',
      f.line,
      `:${f.tag}: amount "${amount}" needs exactly one decimal comma`,
    );
  const minor = decimalToMinor(amount, currency, {
    decimalSeparator: ',',
    line: f.line,
    what: `:${f.tag}: amount`,
  });
  return {
    amountMinor: m[1] === 'D' ? negateMinor(minor) : minor,
    currency,
    date: requireDate(
      2000 + Number(m[2]),
      Number(m[3]),
      Number(m[4]),
      f.line,
      `:${f.tag}: date`,
      f.value,
    ),
    sourceLine: f.line,
  };
}

interface Info {
  description: string;
  counterpartyName: string | null;
  counterpartyAccount: string | null;
  reference: string | null;
}

function parseInfo(value: string): Info {
  const joined = value.replace(/\n/g, '');
  if (!/^\d{3}\?/.test(joined)) {
    return {
      description: value.replace(/\n/g, ' ').trim(),
      counterpartyName: null,
      counterpartyAccount: null,
      reference: null,
    };
  }
  // German structured :86: (GVC + ?NN sub-fields), wrapped at 65 characters anywhere.
  const sub = new Map<string, string>();
  for (const m of joined.slice(3).matchAll(/\?(\d{2})([^?]*)/g)) {
    const k = m[1] ?? '';
    sub.set(k, (sub.get(k) ?? '') + (m[2] ?? ''));
  }
  const purpose = [...Array(10).keys()]
    .map((i) => sub.get(String(20 + i)) ?? '')
    .concat([60, 61, 62, 63].map((i) => sub.get(String(i)) ?? ''))
    .join('')
    .trim();
  const name = `${sub.get('32') ?? ''}${sub.get('33') ?? ''}`.trim();
  const eref = /EREF\+(.*?)(?=[A-Z]{4}\+|$)/.exec(purpose)?.[1]?.trim();
  return {
    description: [sub.get('00')?.trim(), purpose].filter((x) => x).join(' ') || joined,
    counterpartyName: name || null,
    counterpartyAccount: sub.get('31')?.trim() || null,
    reference: eref && eref !== 'NOTPROVIDED' ? eref : null,
  };
}

const LINE_61 =
  /^(\d{2})(\d{2})(\d{2})(?:(\d{2})(\d{2}))?(R?[DC])([A-Z])?(\d[\d,]{0,14})([NSF][A-Z0-9]{3})([^\n]*?)(?:\/\/([^\n]*))?(?:\n([\s\S]*))?$/;

function parseLine61(
  f: Mt940Field,
  currency: string,
): DraftLine & { bankReference: string | null } {
  const m = LINE_61.exec(f.value);
  if (!m)
    throw new StatementParseError(
      'Malformed',
      f.line,
      `:61: "${f.value.split('\n')[0]?.slice(0, 50)}" is not a statement line`,
    );
  const vy = 2000 + Number(m[1]);
  const valueDate = requireDate(vy, Number(m[2]), Number(m[3]), f.line, ':61: value date', f.value);
  let bookingDate = valueDate;
  if (m[4] && m[5]) {
    const em = Number(m[4]);
    const vm = Number(m[2]);
    // The entry date has no year: it is the value date's, except across a year end.
    const ey = em === 12 && vm === 1 ? vy - 1 : em === 1 && vm === 12 ? vy + 1 : vy;
    bookingDate = requireDate(ey, em, Number(m[5]), f.line, ':61: entry date', f.value);
  }
  const amount = m[8] ?? '';
  if ((amount.match(/,/g) ?? []).length !== 1)
    throw new StatementParseError(
      'InvalidAmount',
      f.line,
      `:61: amount "${amount}" needs exactly one decimal comma`,
    );
  const minor = decimalToMinor(amount, currency, {
    decimalSeparator: ',',
    line: f.line,
    what: ':61: amount',
  });
  // D and RC (reversal of a credit) take money out; C and RD put it in.
  const mark = m[6] ?? '';
  const signed = mark === 'D' || mark === 'RC' ? negateMinor(minor) : minor;
  const customerRef = (m[10] ?? '').trim();
  const bankRef = (m[11] ?? '').trim() || null;
  return {
    sourceLine: f.line,
    bookingDate,
    valueDate,
    amountMinor: signed,
    currency,
    counterpartyName: null,
    counterpartyAccount: null,
    description: (m[12] ?? '').replace(/\n/g, ' ').trim(),
    reference: customerRef && customerRef !== 'NONREF' ? customerRef : null,
    bankTransactionId: null,
    bankReference: bankRef,
  };
}

export function parseMt940(bytes: Uint8Array): Statement[] {
  const fields = readMt940Fields(decodeText(bytes, 'utf-8'));
  if (fields.length === 0) throw new StatementParseError('NoStatement', null, 'no MT940 fields');
  const groups: Mt940Field[][] = [];
  for (const f of fields) {
    if (f.tag === '20') groups.push([f]);
    else {
      const g = groups[groups.length - 1];
      if (!g)
        throw new StatementParseError(
          'MissingField',
          f.line,
          `:${f.tag}: comes before any :20: (transaction reference): not a complete statement`,
        );
      g.push(f);
    }
  }
  return groups.map((g) => statementFrom(g));
}

function statementFrom(g: Mt940Field[]): Statement {
  const head = g[0] as Mt940Field;
  const one = (tags: string[], what: string): Mt940Field => {
    const found = g.filter((f) => tags.includes(f.tag));
    if (found.length === 0)
      throw new StatementParseError(
        'MissingField',
        head.line,
        `the statement starting here has no ${what}`,
      );
    if (found.length > 1)
      throw new StatementParseError(
        'Malformed',
        found[1]?.line ?? head.line,
        `a second ${what} in one statement`,
      );
    return found[0] as Mt940Field;
  };
  const acct = one(['25'], ':25: account');
  const opening = parseMt940Balance(one(['60F', '60M'], ':60F:/:60M: opening balance'));
  const closing = parseMt940Balance(one(['62F', '62M'], ':62F:/:62M: closing balance'));
  const currency = opening.currency;
  const lines: DraftLine[] = [];
  let last: (DraftLine & { bankReference: string | null }) | null = null;
  for (const f of g) {
    if (f.tag === '61') {
      last = parseLine61(f, currency);
      const { bankReference, ...line } = last;
      lines.push({ ...line, bankTransactionId: bankReference });
    } else if (f.tag === '86' && last) {
      const info = parseInfo(f.value);
      const line = lines[lines.length - 1] as DraftLine;
      lines[lines.length - 1] = {
        ...line,
        description: [info.description, line.description].filter((x) => x).join(' '),
        counterpartyName: info.counterpartyName,
        counterpartyAccount: info.counterpartyAccount,
        reference: line.reference ?? info.reference,
      };
      last = null;
    } else if (f.tag !== '86') {
      last = null;
    }
  }
  const account = acct.value.replace(/\n/g, '').trim();
  const iban = /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(account) ? account : null;
  const [bankId, number] = account.includes('/') ? account.split('/', 2) : [null, account];
  return finishStatement({
    format: 'mt940',
    statementId: head.value.trim() || null,
    account: {
      iban,
      number: iban ? null : (number ?? account),
      bankId: iban ? null : (bankId ?? null),
      currency,
    },
    period: { from: opening.date, to: closing.date },
    openingBalance: opening,
    closingBalance: closing,
    lines,
  });
}
