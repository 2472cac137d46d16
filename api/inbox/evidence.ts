import { amountCell } from '../../client/format/entry-lines';
import { laneInWords } from '../../client/format/risk-rules';
import type { HighlightedCitation } from './citations';
import { citedPageHref, documentFileHref, isPdf, markedText, pdfPageFigure } from './cited-page';
import type { InboxItem } from './items';
import { escapeHtml as e } from './layout';

/**
 * The evidence a decision rests on, as the detail view shows it: the proposed entries with
 * accounts named and amounts formatted (debits and credits in their own right-aligned
 * columns), the risk rules in words, the payee with its number masked, and each cited span
 * of a document — only the span highlighted, the claimed number marked inside it, with a
 * link to the whole document at that page.
 */
/**
 * One cited span: where it is, links to the cited page alone and to the whole stored file, a
 * PDF's page drawn by pdf.js with the span marked on it, and the span in its stored text.
 */
export function renderCitation(q: HighlightedCitation): string {
  const fact = q.fact ? ` · fact ${q.fact.concept} ${q.fact.period} (${q.fact.factId})` : '';
  const where = `${q.docId}, page ${q.page + 1}${fact}`;
  return `<figure class="citation"><figcaption class="meta">${e(where)} ·
<a href="${e(citedPageHref(q))}">the cited page</a> ·
<a href="${e(documentFileHref(q.docId, q.page, q.mimeType))}">open the whole document</a></figcaption>
${isPdf(q.mimeType) ? pdfPageFigure(q) : ''}<blockquote class="quote">…${markedText(q)}…</blockquote></figure>`;
}

function renderRisk(r: NonNullable<InboxItem['evidence']['risk']>): string {
  return `<section class="panel" aria-labelledby="risk-h"><h2 id="risk-h">Risk</h2>
<p><span class="lane lane-${e(r.lane)}">${e(laneInWords(r.lane, r.requiredApprovals))}</span>
· score ${r.score} · approvals so far: ${r.approvals} of ${r.requiredApprovals}</p>
<ul class="rules">${r.rules.map((x) => `<li data-rule="${e(x.rule)}">${e(x.words)}</li>`).join('') || '<li>No rule fired</li>'}</ul></section>`;
}

function renderEntries(entries: InboxItem['evidence']['entries'], locale?: string): string {
  return entries
    .map((en, n) => {
      const rows = en.lines
        .map(
          (l) =>
            `<tr><td data-account-id="${e(l.accountId)}">${e(l.account)}</td><td>${e(l.currency)}</td><td class="num">${e(amountCell(l.debit, l.currency, locale))}</td><td class="num">${e(amountCell(l.credit, l.currency, locale))}</td></tr>`,
        )
        .join('');
      return `<section class="panel" aria-labelledby="entry-h-${n}"><h2 id="entry-h-${n}">Proposed entry, ${e(en.entryDate)}</h2>
<p>${e(en.memo)}</p>
<table class="entries"><caption class="visually-hidden">Lines of the proposed entry</caption>
<thead><tr><th scope="col">Account</th><th scope="col">Currency</th><th scope="col" class="num">Debit</th><th scope="col" class="num">Credit</th></tr></thead>
<tbody>${rows}</tbody></table></section>`;
    })
    .join('');
}

export function renderEvidence(i: InboxItem): string {
  const ev = i.evidence;
  const parts: string[] = [];
  if (ev.risk) parts.push(renderRisk(ev.risk));
  if (ev.entries.length) parts.push(renderEntries(ev.entries, i.locale));
  if (ev.payee)
    parts.push(
      `<section class="panel" aria-labelledby="payee-h"><h2 id="payee-h">Payee</h2><p class="payee">${e(ev.payee)}</p></section>`,
    );
  if (ev.answer !== null)
    parts.push(`<section class="panel" aria-labelledby="answer-h"><h2 id="answer-h">Proposed answer</h2>
${renderAnswer(ev.answer)}</section>`);
  if (ev.reasons.length)
    parts.push(
      `<section class="panel" aria-labelledby="why-h"><h2 id="why-h">Why a person is asked</h2><ul>${ev.reasons.map((r) => `<li>${e(r)}</li>`).join('')}</ul></section>`,
    );
  if (ev.claims.length)
    parts.push(`<section class="panel" aria-labelledby="cite-h"><h2 id="cite-h">Evidence</h2>
${ev.claims
  .map(
    (c) => `<div class="claim" data-claim-id="${e(c.id)}"><p><strong>${e(c.label)}</strong>${
      c.formatted ? `: ${e(c.formatted)}` : c.value ? `: ${e(c.value)} ${e(c.unit)}` : ''
    }${c.printed ? ` (printed “${e(c.printed)}”)` : ''}</p>
${c.citations.map(renderCitation).join('')}</div>`,
  )
  .join('')}</section>`);
  if (i.kind === 'request' && ev.payload && typeof ev.payload === 'object') {
    const p = ev.payload as Record<string, unknown>;
    parts.push(`<section class="panel" aria-labelledby="req-h"><h2 id="req-h">Request</h2><dl class="facts">
${Object.entries(p)
  .map(([k, v]) => `<dt>${e(k)}</dt><dd>${e(v === null ? '—' : String(v))}</dd>`)
  .join('')}</dl></section>`);
  }
  return parts.join('\n');
}

/** A summary's lines ("- sentence [doc p.3]") as a list; any other answer as a paragraph. */
function renderAnswer(text: string): string {
  const lines = text.split('\n').filter((l) => l.trim());
  const bullets = lines.filter((l) => l.startsWith('- '));
  if (bullets.length >= 1) {
    const lead = lines.filter((l) => !l.startsWith('- '));
    return `${lead.map((l) => `<p>${e(l)}</p>`).join('')}<ul class="summary">${bullets
      .map((b) => `<li>${e(b.slice(2))}</li>`)
      .join('')}</ul>`;
  }
  return `<p class="answer">${e(text)}</p>`;
}
