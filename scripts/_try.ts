import { readFileSync } from 'node:fs';
import { extractPdfText } from '../activities/documents/pdf-text';
import { extractBill } from '../activities/bills/extract-bill';
(async () => {
  for (const f of process.argv.slice(2)) {
    const pages = f.endsWith('.pdf') ? (await extractPdfText(new Uint8Array(readFileSync(f)))).pages.map(p => p.text) : [readFileSync(f, 'utf8')];
    const r = extractBill(pages);
    const exp = (() => { try { return JSON.parse(readFileSync(f.replace(/\.(pdf|txt)$/, '.json'), 'utf8'))[0]; } catch { return {}; } })();
    console.log(f.split('/').pop(), r.outcome, JSON.stringify({i: r.issuer, n: r.invoiceNumber, d: r.issueDate, due: r.dueDate, c: r.currency, g: r.amount, net: r.amountUntaxed, tax: r.amountTax, lb: r.linesBasis, nl: r.lines.length}));
    console.log('   exp', JSON.stringify({i: exp.issuer, n: exp.invoice_number, d: exp.date, c: exp.currency, g: exp.amount, net: exp.amount_untaxed, tax: exp.amount_tax}));
    if (r.reasons.length) console.log('   reasons:', r.reasons.join(' | '));
  }
})();
