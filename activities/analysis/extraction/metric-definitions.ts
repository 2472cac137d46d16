/**
 * The catalog of financial metrics, as data: every entry in lookup order (income statement,
 * balance sheet, cash flow, regulatory capital). Keep the order: the list is scanned in it.
 */
import { BALANCE_METRICS } from './metric-definitions-balance';
import { CAPITAL_METRICS } from './metric-definitions-capital';
import { CASH_FLOW_METRICS } from './metric-definitions-cash-flow';
import { INCOME_METRICS } from './metric-definitions-income';
import type { MetricDefinition } from './metric-types';

export const METRICS: readonly MetricDefinition[] = [
  ...INCOME_METRICS,
  ...BALANCE_METRICS,
  ...CASH_FLOW_METRICS,
  ...CAPITAL_METRICS,
];
