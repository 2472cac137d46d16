import { XMLParser, XMLValidator } from 'fast-xml-parser';

/**
 * Safe XML reading for e-invoices. An invoice never needs a DTD: any DOCTYPE or ENTITY
 * declaration is refused before parsing (no external entities, no entity expansion — XXE and
 * "billion laughs" cannot start), and the size is bounded. Elements are read by local name
 * (namespace prefixes vary between senders: rsm:/ram:, cbc:/cac:, or a default namespace);
 * text stays text, so amounts keep their exact decimals.
 */
export const MAX_INVOICE_XML_BYTES = 10 * 1024 * 1024;

export class EInvoiceRefusal extends Error {
  override readonly name = 'EInvoiceRefusal';
  constructor(
    readonly code: 'too_large' | 'dtd_forbidden' | 'malformed' | 'not_an_invoice',
    message: string,
  ) {
    super(message);
  }
}

/** A parsed element: its attributes (`@_name`), its text (`#text`) and its children by name. */
export type XmlNode = { [name: string]: XmlNode[] | string | undefined };

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // A leaf is an element like any other: `{ '#text': … }`, with or without attributes.
  alwaysCreateTextNode: true,
  // Entities are decoded by `unescape` below, in one pass: the five predefined ones and
  // character references. A DTD, and so any entity of its own, never reaches the parser.
  processEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // Every element is a list, so one and many read alike.
  isArray: (_name, _jpath, _leaf, isAttribute) => !isAttribute,
});

/** The root element's local name and the document, or a typed refusal. */
export function parseInvoiceXml(text: string): {
  root: string;
  node: XmlNode;
  namespace: string | null;
} {
  if (Buffer.byteLength(text, 'utf8') > MAX_INVOICE_XML_BYTES)
    throw new EInvoiceRefusal(
      'too_large',
      `The XML is larger than ${MAX_INVOICE_XML_BYTES} bytes; an invoice is far smaller`,
    );
  const body = text.replace(/^\uFEFF/, '');
  if (/<!DOCTYPE|<!ENTITY/i.test(body))
    throw new EInvoiceRefusal(
      'dtd_forbidden',
      'The XML declares a DTD or entities; e-invoices never do, and they are not expanded',
    );
  const valid = XMLValidator.validate(body);
  if (valid !== true)
    throw new EInvoiceRefusal(
      'malformed',
      `The XML is not well-formed: ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})`,
    );
  const doc = parser.parse(body) as XmlNode;
  const roots = Object.keys(doc).filter((k) => !k.startsWith('@_') && k !== '#text');
  const root = roots[0];
  const node = root ? (doc[root] as XmlNode[] | undefined)?.[0] : undefined;
  if (!root || !node || roots.length !== 1)
    throw new EInvoiceRefusal('malformed', 'The XML has no single root element');
  const ns = Object.entries(node).find(
    ([k]) =>
      k === '@_xmlns' ||
      (k.startsWith('@_xmlns:') && /(?:Invoice|CreditNote|CrossIndustry)/.test(String(node[k]))),
  );
  return { root, node, namespace: typeof ns?.[1] === 'string' ? ns[1] : null };
}

/** The first child element at a path of local names, e.g. `at(n, 'ExchangedDocument', 'ID')`. */
export function at(node: XmlNode | undefined, ...path: string[]): XmlNode | undefined {
  let cur = node;
  for (const name of path) {
    if (!cur) return undefined;
    const list = cur[name];
    cur = Array.isArray(list) ? list[0] : undefined;
  }
  return cur;
}

/** Every child element of that name under the path's last element. */
export function all(node: XmlNode | undefined, ...path: string[]): XmlNode[] {
  const parentPath = path.slice(0, -1);
  const last = path[path.length - 1]!;
  const parent = parentPath.length ? at(node, ...parentPath) : node;
  const list = parent?.[last];
  return Array.isArray(list) ? list : [];
}

/** An element's text (trimmed; empty elements read as null). */
export function textOf(node: XmlNode | undefined): string | null {
  if (!node) return null;
  const t = node['#text'];
  const s = typeof t === 'string' ? unescape(t).trim() : '';
  return s === '' ? null : s;
}

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** The predefined entities and character references, in one pass ("&amp;#246;" stays "&#246;"). */
export function unescape(s: string): string {
  return s.replace(
    /&(amp|lt|gt|quot|apos|#\d{1,7}|#x[0-9a-fA-F]{1,6});/g,
    (whole, name: string) => {
      if (name[0] !== '#') return PREDEFINED[name] ?? whole;
      const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : whole;
    },
  );
}

export const text = (node: XmlNode | undefined, ...path: string[]) => textOf(at(node, ...path));

export function attr(node: XmlNode | undefined, name: string): string | null {
  const v = node?.[`@_${name}`];
  return typeof v === 'string' ? unescape(v) : null;
}

/** A decimal amount as the XML writes it ("1234.50", "-3", "+7.0"), or null; never a float. */
export function decimal(value: string | null): string | null {
  if (value === null) return null;
  const v = value.replace(/\s+/g, '');
  const m = /^([+-]?)(\d+)(?:\.(\d*))?$/.exec(v) ?? /^([+-]?)()\.(\d+)$/.exec(v);
  if (!m) return null;
  const int = (m[2] || '0').replace(/^0+(?=\d)/, '');
  const frac = (m[3] ?? '').replace(/0+$/, '');
  const sign = m[1] === '-' && (/[1-9]/.test(int) || /[1-9]/.test(frac)) ? '-' : '';
  return `${sign}${int}${frac ? `.${frac}` : ''}`;
}

/**
 * The text of XML bytes in the encoding they declare: a byte-order mark first (UTF-8, UTF-16),
 * else the XML declaration's `encoding` (ISO-8859-1 / windows-1252 occur in older ZUGFeRD
 * files), else UTF-8.
 */
export function decodeXml(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  const declared = /^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/
    .exec(head)?.[1]
    ?.toLowerCase();
  const label =
    declared && ['iso-8859-1', 'latin1', 'iso-8859-15', 'windows-1252', 'cp1252'].includes(declared)
      ? declared === 'latin1' || declared === 'cp1252'
        ? 'windows-1252'
        : declared
      : 'utf-8';
  return new TextDecoder(label).decode(bytes);
}
