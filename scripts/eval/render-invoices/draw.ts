/** The drawing: a laid-out invoice as a one-font-family PDF page (pdf-lib, WinAnsi text). */

import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import type { RenderedInvoice } from './layout';

/** Characters WinAnsi cannot encode become '?' (the standard fonts only carry WinAnsi). */
function encodable(font: PDFFont, s: string): string {
  return [...s]
    .map((ch) => {
      try {
        font.encodeText(ch);
        return ch;
      } catch {
        return '?';
      }
    })
    .join('');
}

export async function renderPdf(inv: RenderedInvoice): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(inv.name);
  pdf.setCreationDate(new Date('2025-01-01T00:00:00Z'));
  pdf.setModificationDate(new Date('2025-01-01T00:00:00Z'));
  const family = inv.variant.font;
  const regular = await pdf.embedFont(
    family === 'Times'
      ? StandardFonts.TimesRoman
      : family === 'Courier'
        ? StandardFonts.Courier
        : StandardFonts.Helvetica,
  );
  const bold = await pdf.embedFont(
    family === 'Times'
      ? StandardFonts.TimesRomanBold
      : family === 'Courier'
        ? StandardFonts.CourierBold
        : StandardFonts.HelveticaBold,
  );
  const H = 842;
  let page: PDFPage = pdf.addPage([595, H]);
  let offset = 0;
  for (const row of inv.rows) {
    if (row.y - offset > H - 50) {
      page = pdf.addPage([595, H]);
      offset = row.y - 60;
    }
    for (const c of row.cells) {
      const font = c.bold ? bold : regular;
      const size = c.size ?? (family === 'Courier' ? 8 : 9);
      const t = encodable(font, c.text);
      const w = font.widthOfTextAtSize(t, size);
      const x = c.align === 'right' ? c.x - w : c.x;
      page.drawText(t, { x, y: H - (row.y - offset), size, font });
    }
  }
  return pdf.save({ useObjectStreams: false });
}
