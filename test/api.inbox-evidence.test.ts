import { highlight } from '../api/inbox/citations';
import { renderDetailPage } from '../api/inbox/detail-page';
import { applyFilters, InboxQuerySchema } from '../api/inbox/filters';
import type { InboxItem } from '../api/inbox/items';
import { escapeHtml, INBOX_SECURITY_HEADERS } from '../api/inbox/layout';
import { renderListPage } from '../api/inbox/list-page';
import { INBOX_ASSETS } from '../api/inbox/assets';
import { CSRF_HEADER } from '../api/session';
import { renderCitedPage } from '../api/inbox/cited-page';
import { documentFileHeaders } from '../api/inbox/document-file';
import { pdfjsFile } from '../api/inbox/pdfjs-assets';
import { renderCitation } from '../api/inbox/evidence';
import { requestAmount } from '../api/inbox/items';

/** Pure: cited spans, the rendered pages' escaping, the list's filters and order. */
const page = 'Item 7. Net sales were $1,577 million in fiscal 2024, up from $1,402 million.';
const start = page.indexOf('Net sales');
const cite = {
  docId: 'd',
  page: 3,
  charStart: start,
  charEnd: page.indexOf(' in fiscal'),
  quote: 'Net sales were $1,577 million',
};

const NOW = Date.parse('2026-12-10T12:00:00Z');

function item(over: Partial<InboxItem> & Pick<InboxItem, 'id'>): InboxItem {
  return {
    kind: 'approval',
    orgId: 'acme',
    type: 'journal.post',
    title: 't',
    subject: `subject ${over.id}`,
    asked: 'Approve?',
    amount: null,
    lane: 'moderate',
    assignee: 'approvers',
    createdAt: '2026-12-09T12:00:00.000Z',
    dueAt: '2026-12-17T00:00:00.000Z',
    expiresAt: null,
    decisionPath: `/v1/orgs/acme/writes/${over.id}/decisions`,
    decisions: ['approve', 'reject'],
    plan: null,
    evidence: {
      risk: null,
      entries: [],
      payee: null,
      payload: null,
      fields: [],
      answer: null,
      reasons: [],
      claims: [],
    },
    ...over,
  };
}

describe('inbox evidence', () => {
  it('highlights only the cited span, with the printed number marked inside it', () => {
    expect(highlight(page, cite, '1,577')).toEqual({
      docId: 'd',
      page: 3,
      charStart: cite.charStart,
      charEnd: cite.charEnd,
      before: 'Item 7. ',
      spanBefore: 'Net sales were $',
      number: '1,577',
      spanAfter: ' million',
      after: ' in fiscal 2024, up from $1,402 million.',
    });
  });

  it('marks no number when it is not printed in the span (derived claims)', () => {
    const h = highlight(page, cite, '9.9');
    expect(h.number).toBe('');
    expect(h.spanBefore).toBe('Net sales were $1,577 million');
  });

  it('shows a window of the page, not the whole page, cut at word boundaries', () => {
    const long = `${'alpha beta '.repeat(200)}Revenue was 42 units.${' gamma delta'.repeat(200)}`;
    const at = long.indexOf('Revenue');
    const h = highlight(
      long,
      { docId: 'd', page: 0, charStart: at, charEnd: at + 21, quote: '' },
      '42',
    );
    expect(h.before.length).toBeLessThanOrEqual(160);
    expect(h.after.length).toBeLessThanOrEqual(160);
    expect(h.before).toMatch(/^(alpha|beta) /);
    expect(h.after).toMatch(/ (gamma|delta)$/);
  });

  it('renders the detail with the span and number marked, and escapes what documents and submitters wrote', () => {
    const html = renderDetailPage(
      'rita',
      item({
        id: 'r1',
        kind: 'review',
        type: 'extract_metric',
        asked: 'What were <b>net sales</b>?',
        decisionPath: '/v1/orgs/acme/analyses/r1/review',
        decisions: ['approve', 'reject', 'correct'],
        evidence: {
          ...item({ id: 'x' }).evidence,
          answer: 'Net sales: 1577',
          claims: [
            {
              id: 'c1',
              label: 'Net sales',
              value: '1577',
              unit: 'USD millions',
              printed: '1,577',
              citations: [{ ...highlight(page, cite, '1,577'), before: '<script>x</script>' }],
            },
          ],
        },
      }),
      NOW,
    );
    expect(html).toContain(
      '<mark class="span">Net sales were $<mark class="number">1,577</mark> million</mark>',
    );
    expect(html).toContain(
      `href="/inbox/documents/d/pages/4?start=${cite.charStart}&amp;end=${cite.charEnd}&amp;number=1%2C577"`,
    );
    // The whole stored file; no pdf.js figure for a document that is not a PDF.
    expect(html).toContain('href="/inbox/documents/d/file">open the whole document</a>');
    expect(html).not.toContain('class="pdf-page"');
    expect(html).toContain('What were &lt;b&gt;net sales&lt;/b&gt;?');
    expect(html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(html).not.toContain('<script>x</script>');
    expect(html).toContain('data-claim="c1"');
    // No inline script, style or handler: the CSP allows only this origin's files.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)|<style|\son[a-z]+=/i);
    expect(escapeHtml(`"'&`)).toBe('&quot;&#39;&amp;');
  });

  it('shows a fact citation as the printed number marked in its page, named by its fact', () => {
    const text = 'Purchases of property and equipment   (9,447)   (6,539)';
    const at = text.indexOf('(9,447)');
    const fact = {
      factId: 'f-329',
      concept: 'us-gaap:PaymentsToAcquirePropertyPlantAndEquipment',
      period: '2024-09-29..2025-06-28',
      displayed: '9,447',
    };
    const h = highlight(
      text,
      { docId: 'd', page: 6, charStart: at, charEnd: at + 7, quote: '(9,447)', fact },
      '(9,447)',
    );
    expect(h).toMatchObject({
      before: 'Purchases of property and equipment   ',
      number: '(9,447)',
      after: '   (6,539)',
      fact,
    });
    const html = renderDetailPage(
      'rita',
      item({
        id: 'r2',
        kind: 'review',
        type: 'extract_metric',
        asked: 'Capex?',
        decisionPath: '/v1/orgs/acme/analyses/r2/review',
        decisions: ['approve', 'reject', 'correct'],
        evidence: {
          ...item({ id: 'x' }).evidence,
          answer: '$9,447 million',
          claims: [
            {
              id: 'c1',
              label: 'Capital expenditures',
              value: '9447000000',
              unit: 'USD',
              printed: '(9,447)',
              citations: [h],
            },
          ],
        },
      }),
      NOW,
    );
    expect(html).toContain('<mark class="number">(9,447)</mark>');
    expect(html).toContain(
      'fact us-gaap:PaymentsToAcquirePropertyPlantAndEquipment 2024-09-29..2025-06-28 (f-329)',
    );
  });

  it("the CSP allows scripts and styles from this origin only, and the script sends the inbox's CSRF header", () => {
    const csp = INBOX_SECURITY_HEADERS['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|sha256/);
    expect(INBOX_ASSETS['inbox.js']?.body).toContain(`'${CSRF_HEADER}'`);
  });
});

describe('cited pages and stored files', () => {
  const twice = 'Net revenues   $ 6,489   $ 7,500\nNet revenues grew in 2023.';
  const second = twice.lastIndexOf('Net revenues');
  const onPdf = {
    ...highlight(
      twice,
      { docId: 'st', page: 0, charStart: 0, charEnd: twice.indexOf('   $ 7,500'), quote: '' },
      '6,489',
    ),
    mimeType: 'application/pdf',
  };

  it("draws a PDF's cited page with pdf.js: the figure names the file, page, span, number and context", () => {
    const html = renderCitation(onPdf);
    const fig = /<div class="pdf-page"[^>]*>/.exec(html)?.[0] ?? '';
    expect(fig).toContain('data-file="/inbox/documents/st/file"');
    expect(fig).toContain('data-pdfjs="/inbox/assets/pdfjs"');
    expect(fig).toContain('data-page="1"');
    expect(fig).toContain('data-span="Net revenues   $ 6,489"');
    expect(fig).toContain('data-number="6,489"');
    expect(fig).toContain(
      'data-after="   $ 7,500 Net revenues grew in 2023."'.replace(' Net', '\nNet'),
    );
    expect(html).toContain('href="/inbox/documents/st/file#page=1">open the whole document</a>');
    // The stored text stays beside the drawing, span and number marked.
    expect(html).toContain(
      '<mark class="span">Net revenues   $ <mark class="number">6,489</mark></mark>',
    );
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)|<style|\son[a-z]+=/i);
  });

  it("shows a text document's cited page whole, only the span highlighted and the number marked", () => {
    const q = highlight(
      twice,
      { docId: 'st', page: 2, charStart: second, charEnd: twice.length - 1, quote: '' },
      '2023',
      Infinity,
    );
    const html = renderCitedPage(
      'rita',
      'acme',
      { id: 'st', title: 'Statement <1>', mimeType: 'text/plain' },
      q,
    );
    expect(html).toContain(
      'Net revenues   $ 6,489   $ 7,500\n<mark class="span">Net revenues grew in <mark class="number">2023</mark></mark>.',
    );
    expect(html.match(/<mark class="span">/g)).toHaveLength(1);
    expect(html).toContain('<h1>Statement &lt;1&gt;, page 3</h1>');
    expect(html).not.toContain('class="pdf-page"');
    expect(html).toContain('<script type="module" src="/inbox/assets/cited-page.js"></script>');
  });

  it('serves a stored file as its own type, never sniffed; markup sandboxed, PDFs inline', () => {
    const h = documentFileHeaders('text/html', 'Pillar 3 "2024"');
    expect(h).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'content-disposition': 'inline; filename="Pillar 3 _2024_"',
    });
    expect(h['content-security-policy']).toMatch(/^sandbox; default-src 'none'/);
    expect(documentFileHeaders('application/xml', 'inv')['content-security-policy']).toMatch(
      /^sandbox;/,
    );
    expect(documentFileHeaders('application/xhtml+xml', 'ix')['content-security-policy']).toMatch(
      /^sandbox;/,
    );
    const pdf = documentFileHeaders('application/pdf', 'st.pdf');
    expect(pdf['content-type']).toBe('application/pdf');
    expect(pdf['content-security-policy']).not.toContain('sandbox');
    expect(documentFileHeaders('text/html\r\nx: y', 'z')).toMatchObject({
      'content-type': 'application/octet-stream',
      'content-disposition': 'attachment; filename="z"',
    });
  });

  it('serves pdf.js and its data from this origin, and nothing else of the package', () => {
    expect(pdfjsFile('build', 'pdf.min.mjs')?.contentType).toBe('text/javascript; charset=utf-8');
    expect(pdfjsFile('build', 'pdf.worker.min.mjs')?.body.length).toBeGreaterThan(100_000);
    expect(pdfjsFile('standard_fonts', 'LiberationSans-Regular.ttf')?.contentType).toBe(
      'application/octet-stream',
    );
    expect(pdfjsFile('build', 'pdf.mjs')).toBeNull();
    expect(pdfjsFile('build', '..%2Fpackage.json')).toBeNull();
    expect(pdfjsFile('..', 'package.json')).toBeNull();
    expect(pdfjsFile('standard_fonts', '..')).toBeNull();
  });
});

describe("amounts in the reader's locale", () => {
  it("reads a request's amount from the evidence its agent attached", () => {
    expect(requestAmount({ billId: 'B-17', total: '1250.00', currency: 'EUR' }, 'de-DE')).toEqual({
      minor: '125000',
      currency: 'EUR',
      text: '1.250,00\u00a0€',
    });
    expect(requestAmount({ amountMinor: '7500000', currency: 'USD' }, 'en-US')?.text).toBe(
      '$75,000.00',
    );
    expect(requestAmount({ amount: '12', currency: 'shares' }, 'en-US')).toBeNull();
    expect(requestAmount({ billId: 'B-17' }, 'en-US')).toBeNull();
  });

  it("lays out an approval's lines and a review's money claims in the item's locale", () => {
    const html = renderDetailPage(
      'rita',
      item({
        id: 'de',
        locale: 'de-DE',
        amount: { minor: '7500000', currency: 'EUR', text: '75.000,00\u00a0€' },
        evidence: {
          ...item({ id: 'x' }).evidence,
          entries: [
            {
              entryDate: '2026-11-30',
              memo: 'm',
              lines: [
                {
                  accountId: 'a',
                  account: '6400 Fees',
                  currency: 'EUR',
                  debit: '7500000',
                  credit: '0',
                },
                {
                  accountId: 'b',
                  account: '1010 Bank',
                  currency: 'EUR',
                  debit: '0',
                  credit: '7500000',
                },
              ],
            },
          ],
          claims: [
            {
              id: 'c1',
              label: 'Capex',
              value: '9447000000',
              unit: 'USD',
              printed: '9,447',
              formatted: '9.447.000.000,00\u00a0$',
              citations: [],
            },
          ],
        },
      }),
      NOW,
    );
    expect(html).toContain('<td class="num">75.000,00</td><td class="num"></td>');
    expect(html).toContain('<td class="num"></td><td class="num">75.000,00</td>');
    expect(html).toContain('<strong>Capex</strong>: 9.447.000.000,00\u00a0$');
    expect(html).toContain('75.000,00\u00a0€');
    expect(html).not.toContain('7500000<');
  });
});

describe('inbox list', () => {
  const items = [
    item({
      id: 'big',
      lane: 'high',
      amount: { minor: '7500000', currency: 'USD', text: '$75,000.00' },
      dueAt: '2026-12-20T00:00:00.000Z',
    }),
    item({
      id: 'small',
      amount: { minor: '2500', currency: 'USD', text: '$25.00' },
      dueAt: '2026-12-09T00:00:00.000Z',
    }),
    item({ id: 'req', kind: 'request', type: 'classification', lane: null, assignee: 'rita' }),
    item({ id: 'other', orgId: 'beta', lane: 'low' }),
  ];
  const q = (raw: Record<string, string>) => InboxQuerySchema.parse(raw);

  it('filters by org, type, lane, due and assignee', () => {
    const ids = (raw: Record<string, string>) => applyFilters(items, q(raw), NOW).map((i) => i.id);
    expect(ids({ org: 'beta' })).toEqual(['other']);
    expect(ids({ type: 'request' })).toEqual(['req']);
    expect(ids({ lane: 'high' })).toEqual(['big']);
    expect(ids({ lane: 'none' })).toEqual(['req']);
    expect(ids({ due: 'overdue' })).toEqual(['small']);
    expect(ids({ assignee: 'rita' })).toEqual(['req']);
  });

  it('sorts by amount (exact, as minor units) and by due date, either way; bad values fall back', () => {
    const ids = (raw: Record<string, string>) => applyFilters(items, q(raw), NOW).map((i) => i.id);
    expect(ids({ sort: 'amount', dir: 'desc' }).slice(0, 2)).toEqual(['big', 'small']);
    expect(ids({ sort: 'due' })[0]).toBe('small');
    expect(ids({ sort: 'nonsense', dir: 'sideways', lane: 'purple' })).toEqual(ids({}));
  });

  it('shows formatted amounts and keyboard-ready rows, never minor units', () => {
    const html = renderListPage('rita', 'acme', items, items, q({}), NOW);
    expect(html).toContain('$75,000.00');
    expect(html).not.toContain('7500000<');
    expect(html).toMatch(/<tr class="task" id="task-0" tabindex="0" aria-selected="true"/);
    expect(html).toContain('data-decisions="approve reject"');
    expect(html).toContain('data-label="journal.post “subject big” for $75,000.00"');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)|<style|\son[a-z]+=/i);
  });
});
