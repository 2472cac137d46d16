/**
 * The page model: one invoice laid out as rows of cells in its variant's language, formats and
 * layout, with the gold fields the page shows (`layoutInvoice`), and the file-name stem.
 */

import { basename } from 'node:path';
import {
  formatMoney,
  formatNumber,
  formatPrice,
  formatQty,
  formatRate,
  type CurrencyStyle,
} from './formats';
import type { Gold, Party } from './gold';
import { VOCAB, formatDate } from './languages';
import { pick, rng } from './seeded';
import type { Variant } from './variant';

interface Cell {
  text: string;
  x: number;
  align?: 'left' | 'right';
  bold?: boolean;
  size?: number;
}
/** One printed row: its cells at a baseline (y grows downwards from the top margin). */
interface Row {
  y: number;
  cells: Cell[];
}

export interface RenderedInvoice {
  name: string;
  variant: Variant;
  rows: Row[];
  expected: Record<string, string>;
}

const LEFT = 50;
const RIGHT = 545;

/** Lays one invoice out as rows of cells in the variant's language, formats and layout. */
export function layoutInvoice(g: Gold, variant: Variant): RenderedInvoice {
  const r = rng(
    `${variant.seed ? `${variant.seed}:` : ''}${g.source}|${variant.lang}|${variant.layout}|${variant.trap ?? ''}`,
  );
  const v = VOCAB[variant.lang];
  const { numberStyle: ns } = variant;
  const cur: CurrencyStyle = variant.currencyStyle;
  const money = (c: bigint) => formatMoney(c, g.currency, ns, cur);
  const bare = (c: bigint) => formatNumber(c, ns);
  const date = (iso: string) =>
    variant.dateStyle === 'iso'
      ? iso
      : variant.lang === 'en'
        ? variant.dateSep === 'uk-words'
          ? formatDate(iso, 'en', 'words', '')
          : variant.dateSep === 'us'
            ? formatDate(iso, 'en', variant.dateStyle, 'us')
            : formatDate(iso, 'en', variant.dateStyle === 'words' ? 'words' : 'numeric', '/')
        : formatDate(iso, variant.lang, variant.dateStyle, variant.dateSep);
  const rows: Row[] = [];
  let y = 60;
  const row = (cells: Cell[], gap = 14) => {
    rows.push({ y, cells });
    y += gap;
  };

  // Sender: name large, address, then the DIN-style one-line sender above the address window.
  const s = g.seller;
  const addr = (p: Party) =>
    [p.street, [p.postcode, p.city].filter(Boolean).join(' '), p.country].filter(
      (x): x is string => !!x && x.trim() !== '',
    );
  row([{ text: g.seller.name, x: LEFT, bold: true, size: 14 }], 18);
  for (const l of addr(s)) row([{ text: l, x: LEFT }], 12);
  if (s.vatId) row([{ text: `${v.vatId} ${s.vatId}`, x: LEFT }], 12);
  y += 16;

  // Invoice meta: what to print, in order.
  const number = variant.trap === 'two-numbers' ? `${g.number}` : g.number;
  const meta: [string, string][] = [
    [pick(r, v.number), number],
    [pick(r, v.date), date(g.issueDate)],
  ];
  if (g.buyerRef && r() < 0.5) meta.push([pick(r, v.customer), g.buyerRef]);
  if (g.orderRef) meta.push([pick(r, v.order), g.orderRef]);
  if (g.deliveryDate && r() < 0.6) meta.push([pick(r, v.delivery), date(g.deliveryDate)]);
  if (g.dueDate && g.dueDate >= g.issueDate) meta.push([pick(r, v.due), date(g.dueDate)]);
  const colon = r() < 0.6 ? ':' : '';
  const title = variant.trap === 'credit-note' ? v.creditTitle : pick(r, v.title);

  const buyerBlock = () => {
    const b = g.buyer;
    const marker = r() < 0.7 ? pick(r, v.billTo) : null;
    const sender = [s.name, s.street, [s.postcode, s.city].filter(Boolean).join(' ')]
      .filter(Boolean)
      .join(' · ');
    const out: string[] = [];
    if (r() < 0.5) out.push(sender);
    if (marker) out.push(`${marker}:`);
    if (b.name) out.push(b.name);
    out.push(...addr(b));
    return out;
  };

  const layout = variant.layout;
  if (layout === 'blocks-right' || layout === 'next-line') {
    const left = buyerBlock();
    const right: Cell[][] = [];
    for (const [label, value] of meta) {
      if (layout === 'next-line') {
        right.push([{ text: label, x: 360, bold: true }]);
        right.push([{ text: value, x: 360 }]);
      } else
        right.push([
          { text: `${label}${colon}`, x: 340 },
          { text: value, x: RIGHT, align: 'right' },
        ]);
    }
    const n = Math.max(left.length, right.length);
    for (let i = 0; i < n; i++) {
      const cells: Cell[] = [];
      if (left[i])
        cells.push({
          text: left[i]!,
          x: LEFT,
          size: i === 0 && left[i]!.includes('·') ? 7 : undefined,
        });
      if (right[i]) cells.push(...right[i]!);
      row(cells, 13);
    }
    y += 16;
    row([{ text: title, x: LEFT, bold: true, size: 16 }], 26);
  } else if (layout === 'header-row') {
    for (const l of buyerBlock()) row([{ text: l, x: LEFT }], 13);
    y += 16;
    row([{ text: title, x: LEFT, bold: true, size: 16 }], 24);
    const shown = meta.slice(0, 4);
    const w = (RIGHT - LEFT) / shown.length;
    row(
      shown.map(([label], i) => ({ text: label, x: LEFT + i * w, bold: true })),
      13,
    );
    row(
      shown.map(([, value], i) => ({ text: value, x: LEFT + i * w })),
      24,
    );
    for (const [label, value] of meta.slice(4))
      row([{ text: `${label}${colon} ${value}`, x: LEFT }], 13);
  } else {
    // inline-title / boxed-totals: the title carries number and date ("Rechnung Nr. X vom D").
    for (const l of buyerBlock()) row([{ text: l, x: LEFT }], 13);
    y += 16;
    const [numLabel, numValue] = meta[0]!;
    const [dateLabel, dateValue] = meta[1]!;
    if (layout === 'inline-title') {
      row([{ text: title, x: LEFT, bold: true, size: 16 }], 22);
      row(
        [
          { text: `${numLabel}${colon} ${numValue}`, x: LEFT },
          { text: `${dateLabel}${colon} ${dateValue}`, x: 330 },
        ],
        14,
      );
    } else {
      if (variant.trap === 'credit-note') row([{ text: title, x: LEFT, bold: true, size: 16 }], 22);
      row([{ text: `${numLabel}${colon} ${numValue}`, x: LEFT, bold: true, size: 12 }], 16);
      row([{ text: `${dateLabel}${colon} ${dateValue}`, x: LEFT }], 14);
    }
    for (const [label, value] of meta.slice(2))
      row([{ text: `${label}${colon} ${value}`, x: LEFT }], 13);
    y += 10;
  }
  if (cur === 'note')
    row([{ text: pick(r, v.currencyNote).replace('{c}', g.currency), x: LEFT }], 18);

  // Lines.
  const X = { pos: LEFT, desc: LEFT + 30, qty: 330, price: 430, amount: RIGHT };
  row(
    [
      { text: v.pos, x: X.pos, bold: true },
      { text: v.desc, x: X.desc, bold: true },
      { text: v.qty, x: X.qty, align: 'right', bold: true },
      { text: v.price, x: X.price, align: 'right', bold: true },
      { text: v.amount, x: X.amount, align: 'right', bold: true },
    ],
    15,
  );
  const lines = g.lines.slice(0, 25);
  lines.forEach((l, i) => {
    row(
      [
        { text: String(i + 1), x: X.pos },
        { text: clip(l.name || '-', 44), x: X.desc },
        { text: formatQty(l.qty, ns), x: X.qty, align: 'right' },
        { text: formatPrice(l.price, ns), x: X.price, align: 'right' },
        { text: bare(l.amount), x: X.amount, align: 'right' },
      ],
      13,
    );
  });
  y += 8;

  // Totals.
  const vat = g.vat.length > 0 ? g.vat : [{ rate: null, base: g.net, tax: g.tax }];
  let tax = g.tax;
  if (variant.trap === 'arithmetic') tax = g.tax + 100n;
  // Totals, each with its role: what a boxed table shows in its head row and what it leaves
  // above as plain rows (subtotal, allowances and charges, the per-rate breakdown).
  type Role = 'above' | 'net' | 'tax' | 'gross' | 'prepaid' | 'payable';
  const totals: [string, string, Role][] = [];
  if (g.adjustments.length > 0 && g.lineTotal !== null) {
    totals.push([pick(r, v.subtotal), money(g.lineTotal), 'above']);
    for (const a of g.adjustments) totals.push([clip(a.reason, 30), money(a.amount), 'above']);
  }
  totals.push([pick(r, v.net), money(g.net), 'net']);
  const taxLabel = pick(r, v.tax);
  const on = { de: 'auf', fr: 'sur', en: 'on', nl: 'over', es: 'sobre', it: 'su' }[variant.lang];
  for (const t of vat) {
    const label = taxLabel.replace('{r}', formatRate(t.rate, ns));
    if (vat.length === 1) totals.push([label, money(tax), 'tax']);
    else totals.push([`${label} ${on} ${bare(t.base)}`, money(t.tax), 'above']);
  }
  if (vat.length > 1) totals.push([pick(r, v.taxTotal), money(tax), 'tax']);
  if (variant.trap !== 'no-total') totals.push([pick(r, v.gross), money(g.gross), 'gross']);
  if (g.prepaid !== 0n) {
    totals.push([v.prepaid, money(-g.prepaid), 'prepaid']);
    totals.push([pick(r, v.payable), money(g.payable), 'payable']);
  } else if (r() < 0.3 && variant.trap !== 'no-total')
    totals.push([pick(r, v.payable), money(g.payable), 'payable']);

  const plain = (list: [string, string, Role][]) => {
    for (const [label, value] of list)
      row(
        [
          {
            text: `${label}${layout === 'next-line' ? '' : colon}`,
            x: 330,
            bold: label === list[list.length - 1]![0],
          },
          { text: value, x: RIGHT, align: 'right' },
        ],
        14,
      );
  };
  if (layout === 'boxed-totals') {
    // The breakdown above, then a totals table: labels as a head row, values in the row below.
    plain(totals.filter(([, , role]) => role === 'above'));
    y += 6;
    const core = totals.filter(([, , role]) => role !== 'above' && role !== 'prepaid');
    const w = (RIGHT - LEFT) / core.length;
    row(
      core.map(([l], i) => ({ text: l, x: LEFT + (i + 1) * w - 4, align: 'right', bold: true })),
      13,
    );
    row(
      core.map(([, val], i) => ({ text: val, x: LEFT + (i + 1) * w - 4, align: 'right' })),
      18,
    );
  } else plain(totals);
  y += 20;

  // Footer: payment details, the seller again, the page number.
  if (g.iban) row([{ text: `IBAN: ${g.iban}`, x: LEFT }], 12);
  if (variant.trap === 'two-numbers')
    row([{ text: `${meta[0]![0]}${colon} ${otherNumber(g.number)}`, x: LEFT }], 12);
  row([{ text: v.thanks, x: LEFT }], 12);
  row(
    [
      { text: [s.name, s.city].filter(Boolean).join(', '), x: LEFT, size: 7 },
      { text: v.page, x: RIGHT, align: 'right', size: 7 },
    ],
    12,
  );

  const name = `${stem(g.source)}--${variant.lang}-${variant.layout}${variant.trap ? `-trap-${variant.trap}` : ''}.pdf`;
  const d = (c: bigint) => {
    const neg = c < 0n;
    const a = neg ? -c : c;
    return `${neg ? '-' : ''}${a / 100n}.${(a % 100n).toString().padStart(2, '0')}`;
  };
  const expected: Record<string, string> = {
    issuer: g.seller.name,
    invoice_number: g.number,
    date: g.issueDate,
    currency: g.currency,
    amount: d(g.gross),
    amount_untaxed: d(g.net),
    amount_tax: d(g.tax),
    source: g.source,
    language: variant.lang,
    layout: variant.layout,
    outcome: variant.trap ? 'human_review' : 'posted',
  };
  if (!variant.trap) delete expected.outcome;
  return { name, variant, rows, expected };
}

const clip = (s: string, n: number) =>
  (s.length > n ? `${s.slice(0, n - 1)}…` : s).replace(/\s+/g, ' ');
export const stem = (f: string) => basename(f, '.xml').replace(/[^A-Za-z0-9._-]+/g, '_');
/** A second, different invoice number of the same shape (the two-numbers trap). */
function otherNumber(n: string): string {
  const m = /(\d)(\D*)$/.exec(n);
  if (!m) return `${n}-2`;
  const i = m.index;
  return `${n.slice(0, i)}${(Number(m[1]) + 1) % 10}${n.slice(i + 1)}`;
}
