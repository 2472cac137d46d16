import { answerFromFacts, initialsOf } from '../activities/analysis/facts/answer-from-facts';
import {
  memberNames,
  namedPart,
  partMembers,
  type PartMember,
} from '../activities/analysis/facts/segment-member';
import { filingOf } from './support/inline-facts';

/**
 * A part of the company (a segment, a product line, a region) is answered from the member the
 * question names, read from the filing's own members — never from the company total.
 */

const CIK =
  '<xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000777777</xbrli:identifier>';
const YEARS = { FY24: ['2024-01-01', '2024-12-31'], FY23: ['2023-01-01', '2023-12-31'] } as const;
const MEMBERS: Record<string, [string, string]> = {
  CLOUD: ['us-gaap:StatementBusinessSegmentsAxis', 'sw:CloudSegmentMember'],
  DEVICES: ['us-gaap:StatementBusinessSegmentsAxis', 'sw:DevicesSegmentMember'],
  HOME: ['srt:ProductOrServiceAxis', 'sw:HomeAndGardenMember'],
  TOOLS: ['srt:ProductOrServiceAxis', 'sw:ToolsMember'],
  ONLY: ['us-gaap:StatementGeographicalAxis', 'sw:WorldwideMember'],
  FREIGHT: ['srt:ProductOrServiceAxis', 'us-gaap:CargoAndFreightMember'],
};
function context(id: string): string {
  const [year, part] = id.split('_') as [keyof typeof YEARS, string | undefined];
  const [start, end] = YEARS[year];
  const seg = part
    ? `<xbrli:segment><xbrldi:explicitMember dimension="${MEMBERS[part]![0]}">${MEMBERS[part]![1]}</xbrldi:explicitMember></xbrli:segment>`
    : '';
  return `<xbrli:context id="${id}">${CIK}${seg}</xbrli:entity><xbrli:period><xbrli:startDate>${start}</xbrli:startDate><xbrli:endDate>${end}</xbrli:endDate></xbrli:period></xbrli:context>`;
}
let n = 0;
const fact = (concept: string, ctx: string, shown: string) =>
  `<ix:nonFraction name="${concept}" contextRef="${ctx}" unitRef="usd" decimals="-6" scale="6" format="ixt:num-dot-decimal" id="f${++n}">${shown}</ix:nonFraction>`;
const row = (label: string, concept: string, part: string, a: string, b: string) =>
  `<tr><td>${label}</td><td>${fact(concept, `FY24${part}`, a)}</td><td>${fact(concept, `FY23${part}`, b)}</td></tr>`;
const HEAD = '<tr><td></td><td>2024</td><td>2023</td></tr>';
const REV = 'us-gaap:Revenues';
const OI = 'us-gaap:OperatingIncomeLoss';

const HTML = `<?xml version="1.0" encoding="utf-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" xmlns:ixt="http://www.xbrl.org/inlineXBRL/transformation/2020-02-12" xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:xbrldi="http://xbrl.org/2006/xbrldi" xmlns:iso4217="http://www.xbrl.org/2003/iso4217" xmlns:dei="http://xbrl.sec.gov/dei/2024" xmlns:us-gaap="http://fasb.org/us-gaap/2024" xmlns:srt="http://fasb.org/srt/2024" xmlns:sw="http://example.com/sw/20241231">
<head><title>sw-20241231</title></head><body>
<div style="display:none"><ix:header><ix:hidden>
<ix:nonNumeric name="dei:DocumentFiscalYearFocus" contextRef="FY24" id="h1">2024</ix:nonNumeric>
<ix:nonNumeric name="dei:DocumentFiscalPeriodFocus" contextRef="FY24" id="h2">FY</ix:nonNumeric>
<ix:nonFraction name="${REV}" contextRef="FY24_ONLY" unitRef="usd" decimals="-6" scale="6" id="h3">1,000</ix:nonFraction>
</ix:hidden><ix:references/><ix:resources>
${['FY24', 'FY23', ...Object.keys(MEMBERS).flatMap((m) => [`FY24_${m}`, `FY23_${m}`])].map(context).join('\n')}
<xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
</ix:resources></ix:header></div>
<div><p><ix:nonNumeric name="dei:EntityRegistrantName" contextRef="FY24" id="d1">Segment Works, Inc.</ix:nonNumeric></p>
<p>Annual report on Form <ix:nonNumeric name="dei:DocumentType" contextRef="FY24" id="d2">10-K</ix:nonNumeric> for the fiscal year ended <ix:nonNumeric name="dei:DocumentPeriodEndDate" contextRef="FY24" format="ixt:date-monthname-day-year-en" id="d3">December 31, 2024</ix:nonNumeric></p></div>
<hr style="page-break-after:always"/>
<div><p>CONSOLIDATED STATEMENTS OF OPERATIONS</p><p>(in millions)</p><table>${HEAD}
${row('Total revenues', REV, '', '1,000', '900')}
${row('Operating income', OI, '', '200', '150')}
</table></div>
<hr style="page-break-after:always"/>
<div><p>SEGMENT INFORMATION</p><p>(in millions)</p><table>${HEAD}
<tr><td>Cloud:</td></tr>
${row('Net sales', REV, '_CLOUD', '600', '500')}
${row('Operating income', OI, '_CLOUD', '150', '100')}
<tr><td>Devices:</td></tr>
${row('Net sales', REV, '_DEVICES', '400', '400')}
${row('Operating income', OI, '_DEVICES', '50', '50')}
</table></div>
<hr style="page-break-after:always"/>
<div><p>NET SALES BY CATEGORY</p><p>(in millions)</p><table>${HEAD}
${row('Home &amp; Garden', REV, '_HOME', '700', '610')}
${row('Other products', REV, '_TOOLS', '300', '290')}
${row('Freight revenues', REV, '_FREIGHT', '120', '100')}
</table></div>
<hr style="page-break-after:always"/>
<div><p>Net sales by region were as follows for the years presented in this note (in billions):</p>
<table>${HEAD}<tr><td>Americas</td><td>$ 0.6</td><td>$ 0.5</td></tr></table>
<p>No single customer accounted for more than ten percent of net sales in any of the years presented here.</p>
<p>Fiscal 2024</p>
<table><tr><td></td><td>Cloud</td><td>Devices</td></tr>
<tr><td>Research and development</td><td>$ ${fact('us-gaap:ResearchAndDevelopmentExpense', 'FY24_CLOUD', '80')}</td><td>$ ${fact('us-gaap:ResearchAndDevelopmentExpense', 'FY24_DEVICES', '20')}</td></tr>
</table>
<p>Amounts in millions of dollars except per share amounts or as otherwise specified</p></div>
</body></html>`;

const { pages, facts, partFacts, dei } = filingOf(HTML);
const ask = (question: string) =>
  answerFromFacts({ docId: 'sw-10k', question, pages, facts, partFacts, dei });
const answered = (question: string) => {
  const r = ask(question);
  if (r.status !== 'answered') throw new Error(`not answered: ${JSON.stringify(r).slice(0, 600)}`);
  return r;
};

describe('the part of the company a question names, from the filing’s own members', () => {
  const m = (dimension: string, member: string): PartMember => ({ dimension, member });
  const product = 'srt:ProductOrServiceAxis';

  it('reads a member’s name as its words, whatever its camel case or "&"', () => {
    expect(memberNames('aapl:GreaterChinaSegmentMember')).toEqual(['greater china']);
    expect(memberNames('country:DE')).toEqual(['germany']);
    const members = [
      m(product, 'aapl:IPhoneMember'),
      m(product, 'aapl:WearablesHomeandAccessoriesMember'),
      m('us-gaap:StatementBusinessSegmentsAxis', 'pg:FabricHomeCareSegmentMember'),
    ];
    expect(namedPart("Apple's iPhone net sales in 2024?", members)).toMatchObject({
      status: 'one',
      words: 'iPhone',
    });
    expect(namedPart('Net sales of Wearables, Home and Accessories?', members)).toMatchObject({
      status: 'one',
      words: 'Wearables, Home and Accessories',
    });
    expect(namedPart("P&G's Fabric & Home Care segment net sales", members)).toMatchObject({
      status: 'one',
      words: 'Fabric & Home Care',
    });
    // Whole words only: "iPhones" is a plural, "iPhonesque" is not the member.
    expect(namedPart('How many iPhones?', members).status).toBe('one');
    expect(namedPart('An iPhonesque device', members).status).toBe('none');
  });

  it('takes the longest name, and refuses two parts named at once', () => {
    const members = [
      m(product, 'tsla:AutomotiveSalesMember'),
      m('us-gaap:StatementBusinessSegmentsAxis', 'tsla:AutomotiveSegmentMember'),
      m(product, 'tsla:EnergyGenerationAndStorageMember'),
    ];
    expect(namedPart("Tesla's automotive sales revenue in 2024", members)).toMatchObject({
      status: 'one',
      members: [m(product, 'tsla:AutomotiveSalesMember')],
    });
    expect(
      namedPart('Automotive segment and energy generation and storage revenue', members),
    ).toMatchObject({ status: 'several' });
  });

  it('knows the filer by its initials, as questions write them', () => {
    expect(initialsOf('The Procter & Gamble Company')).toEqual(['p&g', 'pg']);
    expect(initialsOf('International Business Machines Corporation')).toEqual(['ibm']);
    expect(initialsOf('Union Pacific Corporation')).toEqual([]);
    expect(initialsOf('Apple Inc.')).toEqual([]);
  });

  it('does not take the only member of an axis for a part of the company', () => {
    // Its one figure is the company's total revenue.
    expect(partMembers(partFacts, facts).map((p) => p.member)).not.toContain('sw:WorldwideMember');
    expect(partMembers(partFacts, facts).map((p) => p.member)).toContain('sw:CloudSegmentMember');
  });
});

describe('answers for a part come from its member’s facts, checked against its printed row', () => {
  it('answers a segment’s net sales and operating income under the segment’s heading', () => {
    const sales = answered(
      "What were Segment Works' Cloud segment net sales in fiscal 2024, in USD millions?",
    );
    expect(sales.part).toBe('Cloud');
    expect(sales.output.answer).toBe('$600 million');
    expect(sales.output.readings).toMatchObject({
      used: 'facts',
      agreed: true,
      operands: [{ printed: { label: expect.stringContaining('Cloud') } }],
    });
    expect(
      answered('What was the operating income of the Devices segment in 2024 (USD millions)?')
        .output.answer,
    ).toBe('$50 million');
  });

  it('answers a product line named with "and" for the printed "&", and its growth', () => {
    expect(answered('Home and Garden revenue for fiscal 2024, in millions?').output.answer).toBe(
      '$700 million',
    );
    expect(
      answered(
        'What was the growth of Cloud segment net sales from 2023 to 2024, in percent to one decimal?',
      ).output.answer,
    ).toBe('20.0%');
    // "grow" with a percent asked is a growth rate.
    expect(
      answered(
        'How much did Cloud segment net sales grow from 2023 to 2024, in percent to one decimal?',
      ).output.answer,
    ).toBe('20.0%');
  });

  it('knows a member by the row its facts are printed in, when that name is its own', () => {
    // us-gaap:CargoAndFreightMember is printed as "Freight revenues".
    expect(
      answered('What were freight revenues in fiscal 2024, in USD millions?').output.answer,
    ).toBe('$120 million');
  });

  it('reads a segment column by its heading, in the scale the page declares for it', () => {
    // The "(in billions)" of the sentence before the first table speaks for that table only;
    // the page's "Amounts in millions" line governs the segment table.
    const r = answered(
      'What was research and development expense of the Devices segment in fiscal 2024, in USD millions?',
    );
    expect(r.output.answer).toBe('$20 million');
    expect(r.output.readings).toMatchObject({
      agreed: true,
      operands: [{ printed: { label: 'Devices Research and development' } }],
    });
  });

  it('never answers a named part with the company total', () => {
    // Operating income is not reported per product line: Tools has no period of it.
    expect(ask('What was the operating income of Tools in fiscal 2024?')).toMatchObject({
      status: 'declined',
      reason: expect.stringContaining('no period of this filing fits it'),
    });
    expect(
      ask('What were the combined net sales of the Cloud and Devices segments in 2024?'),
    ).toMatchObject({ status: 'declined', reason: expect.stringContaining('several parts') });
    expect(ask('What was Segment Works’ Europe segment revenue in 2024?')).toMatchObject({
      status: 'declined',
    });
    // The total is still the total.
    expect(answered('What were total revenues in fiscal 2024, in USD millions?').part).toBeNull();
  });

  it('sends a part’s fact printed in a row that does not name the part to a person', () => {
    const r = ask('What was Tools revenue in fiscal 2024, in USD millions?');
    expect(r.status).toBe('disagreed');
    if (r.status !== 'disagreed') return;
    expect(r.output.summary).toContain(
      'neither the row "Other products" nor its column names Tools',
    );
  });
});
