import { DecisionBody } from '../schemas';
import type { InboxItem } from './items';
import { escapeHtml as e } from './layout';

/**
 * Where a decision is sent from, in one place: the data attributes the inbox script turns
 * into the API call (static/inbox.js, `decisionBody`), for a list row and for the detail
 * view's form alike. An approval carries the plan revision and hash the approver was shown
 * once the API's decision body takes them (the decision then binds to exactly that plan);
 * until then they would be refused as unknown keys, so they are left off.
 */
const API_TAKES_PLAN = 'planHash' in DecisionBody.shape;

export function decisionAttributes(i: InboxItem): string {
  const plan =
    API_TAKES_PLAN && i.plan
      ? ` data-revision="${i.plan.revision}" data-plan-hash="${e(i.plan.planHash)}"`
      : '';
  return `data-path="${e(i.decisionPath)}" data-kind="${e(i.kind)}" data-decisions="${e(i.decisions.join(' '))}" data-label="${e(decisionLabel(i))}"${plan}`;
}

/** What the confirmation asks about: "journal.post “Travel, Q4” for $75,000.00". */
export function decisionLabel(i: InboxItem): string {
  return `${i.type} “${i.subject}”${i.amount ? ` for ${i.amount.text}` : ''}`;
}

const title = (d: string) => d.charAt(0).toUpperCase() + d.slice(1);

function fieldInputs(i: InboxItem): string {
  return i.evidence.fields
    .map((f, n) => {
      const id = `field-${n}`;
      const attrs = `class="field" data-field="${e(f.name)}" data-kind="${e(f.kind)}"${f.required ? ' required' : ''}`;
      if (f.kind === 'enum')
        return `<label for="${id}">${e(f.label)} <select id="${id}" ${attrs}><option value=""></option>${(f.options ?? []).map((o) => `<option>${e(o)}</option>`).join('')}</select></label>`;
      if (f.kind === 'boolean')
        return `<label for="${id}">${e(f.label)} <select id="${id}" ${attrs}><option value=""></option><option value="true">yes</option><option value="false">no</option></select></label>`;
      if (f.kind === 'code_per_item')
        return (f.items ?? [])
          .map(
            (it, k) =>
              `<label for="${id}-${k}">${e(f.label)}: ${e(it.label)} <input id="${id}-${k}" ${attrs} data-item="${e(it.id)}" size="10"></label>`,
          )
          .join('');
      return `<label for="${id}">${e(f.label)} <input id="${id}" ${attrs} ${f.kind === 'number' ? 'type="number" step="any"' : ''}></label>`;
    })
    .join('');
}

function correctionInputs(i: InboxItem): string {
  if (i.kind !== 'review') return '';
  return i.evidence.claims
    .filter((c) => c.value !== '')
    .map(
      (c, n) =>
        `<label for="corr-${n}">Correct ${e(c.label)} (${e(c.unit)}) <input id="corr-${n}" class="correction" data-claim="${e(c.id)}" value="${e(c.value)}" size="14"></label>`,
    )
    .join('');
}

/** The detail view's form: fields of a request, corrections of a review, a note, the buttons. */
export function renderDecisionForm(i: InboxItem): string {
  const noteLabel =
    i.kind === 'request'
      ? 'Your answer in words (used when the form above is left empty)'
      : 'Note (optional; a rejection should say why)';
  return `<section class="panel" aria-labelledby="decide-h"><h2 id="decide-h">Decision</h2>
<form class="decide" ${decisionAttributes(i)}>
${fieldInputs(i)}
${correctionInputs(i)}
<label class="note" for="note">${e(noteLabel)}<textarea id="note" name="note"></textarea></label>
${i.decisions
  .map(
    (d) =>
      `<button type="submit" name="decision" value="${e(d)}" data-decision="${e(d)}" class="${d === 'reject' ? 'danger' : 'primary'}">${e(title(d))}</button>`,
  )
  .join('')}
<span class="status" role="status"></span></form></section>`;
}

/** The confirmation dialog the script opens before any decision is sent. */
export const CONFIRM_DIALOG = `<dialog id="confirm" aria-labelledby="confirm-title">
<h2 id="confirm-title">Confirm</h2><p id="confirm-text"></p>
<div class="actions"><button type="button" id="confirm-cancel">Cancel</button>
<button type="button" id="confirm-ok" class="primary">Confirm</button></div></dialog>`;
