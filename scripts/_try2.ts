import { readFileSync } from 'node:fs';
import { extractPdfText } from '../activities/documents/pdf-text';
import { extractBill } from '../activities/bills/extract-bill';
(async () => {
  for (const f of process.argv.slice(2)) {
    const pages = f.endsWith('.pdf') ? (await extractPdfText(new Uint8Array(readFileSync(f)))).pages.map(p => p.text) : [readFileSync(f, 'utf8')];
    if (process.env.SHOW) console.log(pages.join('\n----\n'));
    const r = extractBill(pages);
    console.log(f.split('/').pop(), r.outcome, JSON.stringify({i: r.issuer, n: r.invoiceNumber, d: r.issueDate, due: r.dueDate, c: r.currency, g: r.amount, net: r.amountUntaxed, tax: r.amountTax, lb: r.linesBasis, nl: r.lines.length}));
    if (r.reasons.length) console.log('   reasons:', r.reasons.join(' | '));
  }
})();
