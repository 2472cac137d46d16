/** Catalog metrics from a bank's regulatory capital and liquidity disclosures (percent ratios). */
import type { MetricDefinition } from './metric-types';

export const CAPITAL_METRICS: readonly MetricDefinition[] = [
  ...(
    [
      [
        'cet1_ratio',
        'Common equity tier 1 capital ratio',
        [
          'common equity tier 1 capital ratio',
          'cet1 capital ratio',
          'common equity tier 1 ratio',
          'cet1 ratio',
          'common equity tier 1',
          'cet1',
        ],
        ['cet1', 'common equity tier 1'],
      ],
      [
        'tier1_ratio',
        'Tier 1 capital ratio',
        [
          'tier 1 capital ratio',
          'tier 1 risk based capital ratio',
          'tier 1 ratio',
          'tier 1 capital',
        ],
        ['tier 1 capital ratio', 'tier 1 ratio'],
      ],
      [
        'total_capital_ratio',
        'Total capital ratio',
        ['total capital ratio', 'total risk based capital ratio', 'total capital'],
        ['total capital ratio'],
      ],
      [
        'leverage_ratio',
        'Tier 1 leverage ratio',
        ['tier 1 leverage ratio', 'leverage ratio', 'tier 1 leverage'],
        ['tier 1 leverage ratio', 'leverage ratio'],
      ],
      [
        'slr',
        'Supplementary leverage ratio',
        ['supplementary leverage ratio', 'slr'],
        ['supplementary leverage ratio', 'slr'],
      ],
      [
        'lcr',
        'Liquidity coverage ratio',
        ['liquidity coverage ratio', 'lcr'],
        ['liquidity coverage ratio', 'lcr'],
      ],
      [
        'nsfr',
        'Net stable funding ratio',
        ['net stable funding ratio', 'nsfr'],
        ['net stable funding ratio', 'nsfr'],
      ],
    ] as const
  ).map(([id, name, labels, phrases]): MetricDefinition => ({
    id,
    name,
    kind: 'ratio_percent',
    statement: 'capital',
    labels,
    exclude: [/minimum/, /required/, /requirement/, /buffer/, /well capitalized/, /adequately/],
    sign: 'as_printed',
    instant: true,
    // LCR and NSFR run above 100%; capital ratios rarely exceed 40%.
    plausible: id === 'lcr' || id === 'nsfr' ? { min: '50', max: '400' } : { min: '1', max: '60' },
    questionPhrases: phrases,
  })),
];
