/**
 * The catalog of formulas (margins, turnover and days ratios, liquidity, payout, tax rate,
 * returns, free cash flow), as data: each names its catalog-metric inputs and computes from
 * them. Keep the order: the list is scanned in it. Evaluated by formula-catalog.ts.
 */
import { add, div, mul, sub } from '../../../workflows/analysis/decimal-core';
import { avg2, both, cur, DAYS, P, pct, type FormulaDefinition } from './formula-types';

export const FORMULAS: readonly FormulaDefinition[] = [
  {
    id: 'gross_margin',
    name: 'Gross margin',
    resultKind: 'percent',
    usesAverage: false,
    variants: [
      {
        text: 'gross_profit / revenue * 100',
        inputs: [cur('gross_profit'), cur('revenue')],
        compute: (g) => pct(g('gross_profit', 0), g('revenue', 0)),
      },
      {
        text: '(revenue - cost_of_revenue) / revenue * 100',
        inputs: [cur('revenue'), cur('cost_of_revenue')],
        compute: (g) => pct(sub(g('revenue', 0), g('cost_of_revenue', 0)), g('revenue', 0)),
      },
    ],
  },
  {
    id: 'operating_margin',
    name: 'Operating margin',
    resultKind: 'percent',
    usesAverage: false,
    variants: [
      {
        text: 'operating_income / revenue * 100',
        inputs: [cur('operating_income'), cur('revenue')],
        compute: (g) => pct(g('operating_income', 0), g('revenue', 0)),
      },
    ],
  },
  {
    id: 'net_margin',
    name: 'Net profit margin',
    resultKind: 'percent',
    usesAverage: false,
    variants: [
      {
        text: 'net_income / revenue * 100',
        inputs: [cur('net_income'), cur('revenue')],
        compute: (g) => pct(g('net_income', 0), g('revenue', 0)),
      },
    ],
  },
  {
    id: 'ebitda_margin',
    name: 'EBITDA margin',
    resultKind: 'percent',
    usesAverage: false,
    variants: [
      {
        text: '(operating_income + depreciation_amortization) / revenue * 100',
        inputs: [cur('operating_income'), cur('depreciation_amortization'), cur('revenue')],
        compute: (g) =>
          pct(add(g('operating_income', 0), g('depreciation_amortization', 0)), g('revenue', 0)),
      },
    ],
  },
  {
    id: 'ebitda',
    name: 'EBITDA (unadjusted)',
    resultKind: 'money',
    usesAverage: false,
    variants: [
      {
        text: 'operating_income + depreciation_amortization',
        inputs: [cur('operating_income'), cur('depreciation_amortization')],
        compute: (g) => add(g('operating_income', 0), g('depreciation_amortization', 0)),
      },
    ],
  },
  {
    id: 'cogs_pct_revenue',
    name: 'Cost of goods sold as % of revenue',
    resultKind: 'percent',
    usesAverage: false,
    variants: [
      {
        text: 'cost_of_revenue / revenue * 100',
        inputs: [cur('cost_of_revenue'), cur('revenue')],
        compute: (g) => pct(g('cost_of_revenue', 0), g('revenue', 0)),
      },
    ],
  },
  {
    id: 'capex_pct_revenue',
    name: 'Capital expenditure as % of revenue',
    resultKind: 'percent',
    usesAverage: false,
    variants: [
      {
        text: 'capex / revenue * 100',
        inputs: [cur('capex'), cur('revenue')],
        compute: (g) => pct(g('capex', 0), g('revenue', 0)),
      },
    ],
  },
  {
    id: 'fixed_asset_turnover',
    name: 'Fixed asset turnover',
    resultKind: 'ratio',
    usesAverage: true,
    definitionMustMention: [/revenue|sales/, /pp&?e|property|fixed assets/],
    variants: [
      {
        text: 'revenue / ((ppe_net + ppe_net[prior year]) / 2)',
        inputs: [cur('revenue'), ...both('ppe_net')],
        compute: (g) => div(g('revenue', 0), avg2(g, 'ppe_net'), P),
      },
    ],
  },
  {
    id: 'inventory_turnover',
    name: 'Inventory turnover',
    resultKind: 'ratio',
    usesAverage: true,
    definitionMustMention: [/cogs|cost of (goods|sales|revenue)/, /inventor/],
    variants: [
      {
        text: 'cost_of_revenue / ((inventory + inventory[prior year]) / 2)',
        inputs: [cur('cost_of_revenue'), ...both('inventory')],
        compute: (g) => div(g('cost_of_revenue', 0), avg2(g, 'inventory'), P),
      },
    ],
  },
  {
    id: 'asset_turnover',
    name: 'Total asset turnover',
    resultKind: 'ratio',
    usesAverage: true,
    definitionMustMention: [/revenue|sales/, /assets/],
    variants: [
      {
        text: 'revenue / ((total_assets + total_assets[prior year]) / 2)',
        inputs: [cur('revenue'), ...both('total_assets')],
        compute: (g) => div(g('revenue', 0), avg2(g, 'total_assets'), P),
      },
    ],
  },
  {
    id: 'receivables_turnover',
    name: 'Receivables turnover',
    resultKind: 'ratio',
    usesAverage: true,
    definitionMustMention: [/revenue|sales/, /receivable/],
    variants: [
      {
        text: 'revenue / ((accounts_receivable + accounts_receivable[prior year]) / 2)',
        inputs: [cur('revenue'), ...both('accounts_receivable')],
        compute: (g) => div(g('revenue', 0), avg2(g, 'accounts_receivable'), P),
      },
    ],
  },
  {
    id: 'days_sales_outstanding',
    name: 'Days sales outstanding',
    resultKind: 'days',
    usesAverage: true,
    definitionMustMention: [/receivable/, /revenue|sales/],
    variants: [
      {
        text: '365 * ((accounts_receivable + accounts_receivable[prior year]) / 2) / revenue',
        inputs: [...both('accounts_receivable'), cur('revenue')],
        compute: (g) => div(mul(DAYS, avg2(g, 'accounts_receivable')), g('revenue', 0), P),
      },
    ],
  },
  {
    id: 'days_inventory_outstanding',
    name: 'Days inventory outstanding',
    resultKind: 'days',
    usesAverage: true,
    definitionMustMention: [/inventor/, /cogs|cost of/],
    variants: [
      {
        text: '365 * ((inventory + inventory[prior year]) / 2) / cost_of_revenue',
        inputs: [...both('inventory'), cur('cost_of_revenue')],
        compute: (g) => div(mul(DAYS, avg2(g, 'inventory')), g('cost_of_revenue', 0), P),
      },
    ],
  },
  {
    id: 'days_payable_outstanding',
    name: 'Days payable outstanding',
    resultKind: 'days',
    usesAverage: true,
    definitionMustMention: [/payable/, /cogs|cost of/],
    definitionMustNotMention: [/change in inventor/],
    variants: [
      {
        text: '365 * ((accounts_payable + accounts_payable[prior year]) / 2) / cost_of_revenue',
        inputs: [...both('accounts_payable'), cur('cost_of_revenue')],
        compute: (g) => div(mul(DAYS, avg2(g, 'accounts_payable')), g('cost_of_revenue', 0), P),
      },
    ],
  },
  {
    id: 'days_payable_outstanding_purchases',
    name: 'Days payable outstanding (on purchases: COGS + change in inventory)',
    resultKind: 'days',
    usesAverage: true,
    definitionMustMention: [/payable/, /change in inventor/],
    variants: [
      {
        text: '365 * ((accounts_payable + accounts_payable[prior year]) / 2) / (cost_of_revenue + inventory - inventory[prior year])',
        inputs: [...both('accounts_payable'), cur('cost_of_revenue'), ...both('inventory')],
        compute: (g) =>
          div(
            mul(DAYS, avg2(g, 'accounts_payable')),
            add(g('cost_of_revenue', 0), sub(g('inventory', 0), g('inventory', -1))),
            P,
          ),
      },
    ],
  },
  {
    id: 'working_capital',
    name: 'Working capital',
    resultKind: 'money',
    usesAverage: false,
    definitionMustMention: [/current assets/, /current liabilities/],
    variants: [
      {
        text: 'total_current_assets - total_current_liabilities',
        inputs: [cur('total_current_assets'), cur('total_current_liabilities')],
        compute: (g) => sub(g('total_current_assets', 0), g('total_current_liabilities', 0)),
      },
    ],
  },
  {
    id: 'current_ratio',
    name: 'Current ratio',
    resultKind: 'ratio',
    usesAverage: false,
    definitionMustMention: [/current assets/, /current liabilities/],
    variants: [
      {
        text: 'total_current_assets / total_current_liabilities',
        inputs: [cur('total_current_assets'), cur('total_current_liabilities')],
        compute: (g) => div(g('total_current_assets', 0), g('total_current_liabilities', 0), P),
      },
    ],
  },
  {
    id: 'quick_ratio',
    name: 'Quick ratio',
    resultKind: 'ratio',
    usesAverage: false,
    definitionMustMention: [/current liabilities/],
    definitionMustNotMention: [/receivable|marketable|short[- ]term investments/],
    variants: [
      {
        text: '(total_current_assets - inventory) / total_current_liabilities',
        inputs: [cur('total_current_assets'), cur('inventory'), cur('total_current_liabilities')],
        compute: (g) =>
          div(
            sub(g('total_current_assets', 0), g('inventory', 0)),
            g('total_current_liabilities', 0),
            P,
          ),
      },
    ],
  },
  {
    id: 'dividend_payout_ratio',
    name: 'Dividend payout ratio',
    resultKind: 'percent',
    usesAverage: false,
    definitionMustMention: [/dividend/, /net income|earnings/],
    variants: [
      {
        text: 'dividends_paid / net_income * 100',
        inputs: [cur('dividends_paid'), cur('net_income')],
        compute: (g) => pct(g('dividends_paid', 0), g('net_income', 0)),
      },
    ],
  },
  {
    id: 'effective_tax_rate',
    name: 'Effective tax rate',
    resultKind: 'percent',
    usesAverage: false,
    definitionMustMention: [/tax/],
    variants: [
      {
        text: 'income_tax / pretax_income * 100',
        inputs: [cur('income_tax'), cur('pretax_income')],
        compute: (g) => pct(g('income_tax', 0), g('pretax_income', 0)),
      },
    ],
  },
  {
    id: 'debt_to_equity',
    name: 'Long-term debt to equity',
    resultKind: 'ratio',
    usesAverage: false,
    definitionMustMention: [/debt/, /equity/],
    definitionMustNotMention: [/short[- ]term|current portion|total liabilities/],
    variants: [
      {
        text: 'long_term_debt / total_equity',
        inputs: [cur('long_term_debt'), cur('total_equity')],
        compute: (g) => div(g('long_term_debt', 0), g('total_equity', 0), P),
      },
    ],
  },
  {
    id: 'return_on_assets',
    name: 'Return on assets',
    resultKind: 'percent',
    usesAverage: true,
    definitionMustMention: [/net income|earnings/, /assets/],
    variants: [
      {
        text: 'net_income / ((total_assets + total_assets[prior year]) / 2) * 100',
        inputs: [cur('net_income'), ...both('total_assets')],
        compute: (g) => pct(g('net_income', 0), avg2(g, 'total_assets')),
      },
    ],
  },
  {
    id: 'return_on_equity',
    name: 'Return on equity',
    resultKind: 'percent',
    usesAverage: true,
    definitionMustMention: [/net income|earnings/, /equity/],
    variants: [
      {
        text: 'net_income / ((total_equity + total_equity[prior year]) / 2) * 100',
        inputs: [cur('net_income'), ...both('total_equity')],
        compute: (g) => pct(g('net_income', 0), avg2(g, 'total_equity')),
      },
    ],
  },
  {
    id: 'free_cash_flow',
    name: 'Free cash flow',
    resultKind: 'money',
    usesAverage: false,
    definitionMustMention: [/operat/, /capex|capital expenditure|property/],
    variants: [
      {
        text: 'operating_cash_flow - capex',
        inputs: [cur('operating_cash_flow'), cur('capex')],
        compute: (g) => sub(g('operating_cash_flow', 0), g('capex', 0)),
      },
    ],
  },
];
