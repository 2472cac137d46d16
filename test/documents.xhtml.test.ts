import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIME_BY_EXT } from '../client/documents';
import { extractPages } from '../activities/documents/page-extraction';
import { DOCUMENT_CONTENT_TYPES } from '../activities/intake/email';

describe('an inline XBRL filing saved as .xhtml', () => {
  it('is accepted as XHTML and read like HTML, its facts with it', async () => {
    expect(MIME_BY_EXT['.xhtml']).toBe('application/xhtml+xml');
    expect(DOCUMENT_CONTENT_TYPES).toContain('application/xhtml+xml');
    const bytes = new Uint8Array(
      readFileSync(join(__dirname, 'fixtures/ixbrl/fiscal-q2-10q.html')),
    );
    const out = await extractPages('application/xhtml+xml', bytes, 0, () => undefined);
    expect(out.pageCount).toBe(4);
    expect(out.inlineXbrl?.status).toBe('facts');
    if (out.inlineXbrl?.status === 'facts')
      expect(out.inlineXbrl.dei).toMatchObject({
        fiscalYearFocus: '2025',
        fiscalPeriodFocus: 'Q2',
      });
  });
});
