import { highlight } from '../api/inbox/items';
import { escapeHtml, renderInboxPage } from '../api/inbox/page';

/** Pure: the cited span's page text with the claimed number marked, and escaped when rendered. */
describe('inbox evidence', () => {
  const page = 'Item 7. Net sales were $1,577 million in fiscal 2024, up from $1,402 million.';
  const start = page.indexOf('Net sales');
  const cite = {
    docId: 'd',
    page: 3,
    charStart: start,
    charEnd: page.indexOf(' in fiscal'),
    quote: 'Net sales were $1,577 million',
  };

  it('marks the printed number inside the cited span, with the page text around it', () => {
    expect(highlight(page, cite, '1,577')).toEqual({
      docId: 'd',
      page: 3,
      before: 'Item 7. Net sales were $',
      match: '1,577',
      after: ' million in fiscal 2024, up from $1,402 million.',
    });
  });

  it('marks the whole span when the number is not printed in it (derived claims)', () => {
    expect(highlight(page, cite, '9.9').match).toBe('Net sales were $1,577 million');
  });

  it('renders the mark and escapes what documents and submitters wrote', () => {
    const html = renderInboxPage('rita', [
      {
        kind: 'review',
        orgId: 'acme',
        id: 'r1',
        title: 'extract_metric review',
        asked: 'What were <b>net sales</b>?',
        createdAt: null,
        dueAt: '2026-12-17T00:00:00.000Z',
        expiresAt: null,
        decisionPath: '/v1/orgs/acme/analyses/r1/review',
        decisions: ['approve', 'reject', 'correct'],
        evidence: {
          risk: null,
          entries: [],
          payee: null,
          payload: null,
          fields: [],
          answer: 'Net sales: 1577',
          reasons: [],
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
      },
    ]);
    expect(html).toContain('<mark>1,577</mark>');
    expect(html).toContain('What were &lt;b&gt;net sales&lt;/b&gt;?');
    expect(html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(html).not.toContain('<script>x</script>');
    expect(html).toContain('data-claim="c1"');
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
    expect(h).toEqual({
      docId: 'd',
      page: 6,
      before: 'Purchases of property and equipment   ',
      match: '(9,447)',
      after: '   (6,539)',
      fact,
    });
    const html = renderInboxPage('rita', [
      {
        kind: 'review',
        orgId: 'acme',
        id: 'r2',
        title: 'extract_metric review',
        asked: 'Capex?',
        createdAt: null,
        dueAt: null,
        expiresAt: null,
        decisionPath: '/v1/orgs/acme/analyses/r2/review',
        decisions: ['approve', 'reject', 'correct'],
        evidence: {
          risk: null,
          entries: [],
          payee: null,
          payload: null,
          fields: [],
          answer: '$9,447 million',
          reasons: [],
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
      },
    ]);
    expect(html).toContain('<mark>(9,447)</mark>');
    expect(html).toContain(
      'fact us-gaap:PaymentsToAcquirePropertyPlantAndEquipment 2024-09-29..2025-06-28 (f-329)',
    );
  });
});
