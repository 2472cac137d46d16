import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { AGENTS_DIR, loadAgentDefinitions } from '../activities/agent-runs/agent-files';
import { RouteSchema, decideRoute, type Route } from '../agents/triage/classify';
import { TriageRequestedSchema } from '../agents/triage/handler';

/**
 * Triage's routing rule on texts written for this test (none from the datasets): a filing
 * and a bill each route on their own vocabulary, reworded and re-cased; a text with both
 * vocabularies, too little of either, or none goes to a person; and the owner an item came
 * from is never its route.
 */
const config = parse(readFileSync(join(AGENTS_DIR, 'triage', 'config.yaml'), 'utf8')) as {
  settings: { routes: unknown[]; min_cues: number };
};
const routes: Route[] = config.settings.routes.map((r) => RouteSchema.parse(r));
const opts = { minCues: config.settings.min_cues, excludedEventTypes: [] as string[] };
const routeOf = (text: string, excluded: string[] = []) => {
  const d = decideRoute(text, routes, { ...opts, excludedEventTypes: excluded });
  return d.kind === 'route' ? d.route.name : `person`;
};

const FILING = `UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM 10-K
ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934
For the fiscal year ended January 31, 2031
Commission file number 001-99999
Northwind Orchards, Inc. (Exact name of registrant as specified in its charter)`;

const FILING_REWORDED = `Northwind Orchards Inc — quarterly report on Form 10 Q for the period
ended 30 June 2031. Condensed consolidated statements of operations (unaudited).
Management's Discussion and Analysis of Financial Condition follows. The registrant had
41,200,000 shares outstanding.`;

const BILL = `Lakeside Printing Ltd
Bill to: Northwind Orchards, 4 Mill Lane
Invoice number: LP-7781        Invoice date: 02/03/2031
Description                Qty   Amount
Brochures A5                500   410.00
Subtotal 410.00   VAT 20% 82.00
Total due GBP 492.00 — Payment terms: net 30 days. Please remit to sort code 00-00-00.`;

const BILL_LOWER = `rechnung / invoice no. 2031-044 — amount due: 1.190,00 eur
due date 15.04.2031, sub-total 1.000,00, vat 19% 190,00`;

describe('triage routing rule', () => {
  it('routes a filing and a bill on their own vocabulary, whatever the wording or case', () => {
    expect(routeOf(FILING)).toBe('filing');
    expect(routeOf(FILING_REWORDED)).toBe('filing');
    expect(routeOf(FILING.toLowerCase())).toBe('filing');
    expect(routeOf(BILL)).toBe('bill');
    expect(routeOf(BILL_LOWER)).toBe('bill');
    expect(routeOf(BILL.replace(/\n/g, '   '))).toBe('bill');
  });

  it('leaves to a person: too few cues, none, or two vocabularies without a clear lead', () => {
    expect(routeOf('Dear team, please find attached our newsletter for the spring.')).toBe(
      'person',
    );
    expect(routeOf('See the annual report.')).toBe('person'); // one cue is not enough
    expect(routeOf('')).toBe('person');
    // A filing's exhibit listing invoices and amounts due: both vocabularies, no clear lead.
    const mixed = `Form 10-K exhibit. Annual report. Schedule of invoices: invoice number, invoice
      date, amount due, due date, payment terms, subtotal.`;
    const d = decideRoute(mixed, routes, opts);
    expect(d.kind).toBe('person');
    expect(d.kind === 'person' && d.reason).toMatch(/^ambiguous: /);
  });

  it('never routes an item back to the owner it failed at: a person decides, with a suggestion', () => {
    const d = decideRoute(BILL, routes, { ...opts, excludedEventTypes: ['bill.received'] });
    expect(d).toMatchObject({ kind: 'person', suggestion: 'bill' });
    expect(routeOf(FILING, ['bill.received'])).toBe('filing');
  });

  it('refuses a route whose cue is not a regular expression, and a payload without a document', () => {
    expect(
      RouteSchema.safeParse({ name: 'x', event_type: 'a.b', description: 'd', cues: ['(('] })
        .success,
    ).toBe(false);
    expect(TriageRequestedSchema.safeParse({ reason: 'no idea' }).success).toBe(false);
    expect(
      TriageRequestedSchema.safeParse({ documentId: 'd1', reason: 'r', extra: 1 }).success,
    ).toBe(false);
  });

  it('only routes: the shipped triage agent can neither write nor submit', () => {
    const triage = loadAgentDefinitions().find((d) => d.config.agent_type === 'triage')!;
    expect(triage.config.allowed_workflows).toEqual([]);
    expect(triage.config.allowed_tools).not.toContain('submit');
    expect([...triage.config.allowed_tools].sort()).toEqual(['document_outline', 'emit_event']);
  });
});
