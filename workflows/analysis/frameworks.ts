/**
 * Versioned regulatory requirement tables. Every number names its source, so a reviewer
 * can check it; a change of a number is a new version, never an edit in place.
 */
export interface Requirement {
  id: string;
  metric: string;
  description: string;
  operator: '>=' | '>' | '<=' | '<';
  /** Percent as a decimal string (4.5 = 4.5%). */
  threshold: string;
  source: string;
}

export interface Framework {
  id: string;
  version: string;
  title: string;
  requirements: Requirement[];
}

const BCBS_189 =
  'BCBS 189, Basel III: A global regulatory framework for more resilient banks (rev. June 2011)';

export const FRAMEWORKS: readonly Framework[] = [
  {
    id: 'basel_iii',
    version: '2011-06+2014',
    title: 'Basel III minimum capital, leverage and liquidity requirements',
    requirements: [
      {
        id: 'cet1_min',
        metric: 'cet1_ratio',
        description: 'CET1 ≥ 4.5% of RWA',
        operator: '>=',
        threshold: '4.5',
        source: `${BCBS_189}, para. 50`,
      },
      {
        id: 'cet1_with_ccb',
        metric: 'cet1_ratio',
        description: 'CET1 ≥ 7.0% of RWA including the 2.5% capital conservation buffer',
        operator: '>=',
        threshold: '7.0',
        source: `${BCBS_189}, paras. 122–130 (conservation buffer 2.5%)`,
      },
      {
        id: 'tier1_min',
        metric: 'tier1_ratio',
        description: 'Tier 1 ≥ 6.0% of RWA',
        operator: '>=',
        threshold: '6.0',
        source: `${BCBS_189}, para. 50`,
      },
      {
        id: 'tier1_with_ccb',
        metric: 'tier1_ratio',
        description: 'Tier 1 ≥ 8.5% of RWA including the conservation buffer',
        operator: '>=',
        threshold: '8.5',
        source: `${BCBS_189}, para. 50 and Annex 1`,
      },
      {
        id: 'total_min',
        metric: 'total_capital_ratio',
        description: 'Total capital ≥ 8.0% of RWA',
        operator: '>=',
        threshold: '8.0',
        source: `${BCBS_189}, para. 50`,
      },
      {
        id: 'total_with_ccb',
        metric: 'total_capital_ratio',
        description: 'Total capital ≥ 10.5% of RWA including the conservation buffer',
        operator: '>=',
        threshold: '10.5',
        source: `${BCBS_189}, Annex 1`,
      },
      {
        id: 'leverage_min',
        metric: 'leverage_ratio',
        description: 'Tier 1 leverage ratio ≥ 3%',
        operator: '>=',
        threshold: '3.0',
        source: 'BCBS 270, Basel III leverage ratio framework (Jan. 2014), para. 8',
      },
      {
        id: 'lcr_min',
        metric: 'lcr',
        description: 'Liquidity coverage ratio ≥ 100%',
        operator: '>=',
        threshold: '100',
        source: 'BCBS 238, Basel III LCR (Jan. 2013), para. 16',
      },
      {
        id: 'nsfr_min',
        metric: 'nsfr',
        description: 'Net stable funding ratio ≥ 100%',
        operator: '>=',
        threshold: '100',
        source: 'BCBS 295, Basel III NSFR (Oct. 2014), para. 9',
      },
    ],
  },
  {
    id: 'us_well_capitalized',
    version: '2015-01',
    title:
      'US prompt corrective action: well-capitalized thresholds for insured depository institutions',
    requirements: [
      {
        id: 'cet1_wc',
        metric: 'cet1_ratio',
        description: 'CET1 ≥ 6.5%',
        operator: '>=',
        threshold: '6.5',
        source: '12 CFR 6.4(b)(1)(i)(D) (OCC); 12 CFR 324.403(b)(1) (FDIC)',
      },
      {
        id: 'tier1_wc',
        metric: 'tier1_ratio',
        description: 'Tier 1 ≥ 8.0%',
        operator: '>=',
        threshold: '8.0',
        source: '12 CFR 6.4(b)(1)(i)(C); 12 CFR 324.403(b)(1)',
      },
      {
        id: 'total_wc',
        metric: 'total_capital_ratio',
        description: 'Total capital ≥ 10.0%',
        operator: '>=',
        threshold: '10.0',
        source: '12 CFR 6.4(b)(1)(i)(A); 12 CFR 324.403(b)(1)',
      },
      {
        id: 'leverage_wc',
        metric: 'leverage_ratio',
        description: 'Tier 1 leverage ≥ 5.0%',
        operator: '>=',
        threshold: '5.0',
        source: '12 CFR 6.4(b)(1)(i)(D); 12 CFR 324.403(b)(1)',
      },
    ],
  },
  {
    id: 'us_eslr',
    version: '2014-04',
    title: 'US enhanced supplementary leverage ratio (GSIB holding companies)',
    requirements: [
      {
        id: 'slr_min',
        metric: 'slr',
        description: 'Supplementary leverage ratio ≥ 3%',
        operator: '>=',
        threshold: '3.0',
        source: '12 CFR 217.10(a)(5)',
      },
      {
        id: 'eslr_buffer',
        metric: 'slr',
        description: 'SLR ≥ 5% including the 2% eSLR buffer',
        operator: '>=',
        threshold: '5.0',
        source: '12 CFR 217.11(a)(2)(v); 79 FR 24528 (May 1, 2014)',
      },
    ],
  },
];

export const DEFAULT_FRAMEWORK = 'basel_iii';

export function findFramework(id: string): Framework | undefined {
  return FRAMEWORKS.find((f) => f.id === id);
}

/** Distinct metrics a framework needs, in table order. */
export function frameworkMetrics(f: Framework): string[] {
  return [...new Set(f.requirements.map((r) => r.metric))];
}
