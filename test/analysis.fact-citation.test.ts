import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseInlineXbrl } from '../activities/documents/inline-xbrl';
import type { StoredFact } from '../db/repositories/filing-facts';
import { validateCitations } from '../activities/analysis/validate-citation';
import { factCitation } from '../activities/analysis/facts/fact-operand';
import { storedFact } from './support/inline-facts';
import type { NumericClaim } from '../workflows/analysis/evidence';
import { runValidationGate } from '../workflows/analysis/validation-gate';

const parsed = parseInlineXbrl(
  readFileSync(join(__dirname, 'fixtures/ixbrl/fiscal-q2-10q.html'), 'utf8'),
);
if (parsed.status !== 'facts') throw new Error('fixture has no facts');
const pages = parsed.pages.map((text, page) => ({ page, text }));
const facts = new Map<string, StoredFact>(parsed.facts.map((f) => [f.id, storedFact(f)]));
const factNamed = (concept: string, period: string) =>
  [...facts.values()].find(
    (f) =>
      f.concept === concept &&
      `${f.period.start ? `${f.period.start}..` : ''}${f.period.end}` === period,
  )!;

const validate = validateCitations({
  loadPage: async (orgId, docId, page) =>
    orgId === 'org-a' && docId === 'fx-10q' ? pages[page]?.text : undefined,
  loadFact: async (orgId, docId, factId) =>
    orgId === 'org-a' && docId === 'fx-10q' ? facts.get(factId) : undefined,
});

const revenueFact = factNamed('us-gaap:Revenues', '2025-01-01..2025-03-31');
const capexFact = factNamed('fx:PurchasesOfPropertyAndEquipment', '2024-10-01..2025-03-31');

function claimOf(fact: StoredFact, over: Partial<NumericClaim> = {}): NumericClaim {
  const citation = factCitation('fx-10q', fact, pages)!;
  return {
    id: `c-${fact.factId}`,
    label: fact.concept,
    metric: null,
    kind: 'money',
    value: fact.value!,
    unit: 'USD',
    period: 'Q2 FY2025',
    printed: citation.quote.trim(),
    citations: [citation],
    derived: false,
    formula: null,
    inputs: [],
    source: 'code',
    ...over,
  };
}

const check = async (claim: NumericClaim) =>
  (await validate({ orgId: 'org-a', claims: [claim] })).results[0]!;

describe('the gate accepts a fact citation only where the page prints the fact', () => {
  it('accepts a fact citation whose span is the page text and prints the number', async () => {
    const claim = claimOf(revenueFact);
    expect(claim.citations[0]).toMatchObject({
      quote: '2,500',
      fact: { factId: revenueFact.factId },
    });
    expect(await check(claim)).toEqual({ claimId: claim.id, ok: true, reason: null });
    // An outflow printed in parentheses: the span includes them, the claim is its magnitude.
    const capex = claimOf(capexFact);
    expect(capex.printed).toBe('(350)');
    expect((await check(capex)).ok).toBe(true);
  });

  it('refuses a span that is not the page text at those offsets', async () => {
    const claim = claimOf(revenueFact);
    const c = claim.citations[0]!;
    const shifted = { ...claim, citations: [{ ...c, charStart: c.charStart + 1 }] };
    expect(await check(shifted)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^quote does not match/),
    });
  });

  it('refuses a claim whose number the cited text does not print', async () => {
    const claim = claimOf(revenueFact, { value: '2600000000', printed: '2,600' });
    expect(await check(claim)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('does not contain 2,600'),
    });
  });

  it('refuses a fact that is printed elsewhere, unknown, or of another value', async () => {
    const claim = claimOf(revenueFact);
    const c = claim.citations[0]!;
    const other = factNamed('us-gaap:Revenues', '2024-01-01..2024-03-31');
    const elsewhere = {
      ...claim,
      citations: [
        { ...c, fact: { ...c.fact!, factId: other.factId, period: '2024-01-01..2024-03-31' } },
      ],
    };
    expect((await check(elsewhere)).reason).toMatch(
      /is printed at fx-10q p\.\d+ \d+-\d+, not at the cited/,
    );
    const unknown = {
      ...claim,
      citations: [{ ...c, fact: { ...c.fact!, factId: 'no-such-fact' } }],
    };
    expect((await check(unknown)).reason).toBe(
      'fact no-such-fact is not a fact of fx-10q in this org',
    );
    const wrongConcept = {
      ...claim,
      citations: [{ ...c, fact: { ...c.fact!, concept: 'us-gaap:CostOfRevenue' } }],
    };
    expect((await check(wrongConcept)).reason).toBe(
      `fact ${revenueFact.factId} is us-gaap:Revenues, not us-gaap:CostOfRevenue`,
    );
    // Printed "2,500" in millions, but the claim says 2,500 units: the fact's value says otherwise.
    const wrongValue = claimOf(revenueFact, { value: '2500' });
    expect((await check(wrongValue)).reason).toBe(
      `fact ${revenueFact.factId} has the value 2500000000, not the claimed 2500`,
    );
    // Another org never sees this document's facts.
    expect((await validate({ orgId: 'org-b', claims: [claim] })).results[0]!.ok).toBe(false);
  });

  it('routes an answer with a refused fact citation to review, and delivers one whose citations hold', async () => {
    const request = {
      requestId: 'r1',
      orgId: 'org-a',
      docIds: ['fx-10q'],
      queryType: 'extract_metric' as const,
      queryText: 'Revenue in Q2 FY2025?',
      requestedBy: 'u',
    };
    const step = {
      stepId: 'step-1',
      tool: 'extract_metric',
      status: 'ok' as const,
      confidence: 0.97,
      errorTag: null,
      summary: '',
      citations: [],
      claims: [],
    };
    const good = claimOf(revenueFact);
    const bad = claimOf(revenueFact, { value: '2500' });
    const gate = async (claim: NumericClaim) =>
      runValidationGate({
        request: request as never,
        steps: [step as never],
        claims: [claim],
        citationChecks: (await validate({ orgId: 'org-a', claims: [claim] })).results,
        answerRequired: true,
        answerPresent: true,
      });
    expect((await gate(good)).route).toBe('DELIVER');
    const refused = await gate(bad);
    expect(refused.route).toBe('HUMAN_REVIEW');
    expect(refused.checks.citationCoverage.failures[0]?.reason).toContain(
      'has the value 2500000000',
    );
  });
});
