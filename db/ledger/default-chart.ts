import type { AccountType } from '../schema';

/**
 * The default small-business chart of accounts, shipped as data. System roles are how the
 * gateway finds the accounts a write kind posts to (bill.post credits accounts_payable, ...).
 */
export interface ChartAccount {
  code: string;
  name: string;
  type: AccountType;
  systemRole?: string;
}

export const DEFAULT_CHART: readonly ChartAccount[] = [
  { code: '1000', name: 'Cash on hand', type: 'asset', systemRole: 'cash' },
  { code: '1010', name: 'Operating bank account', type: 'asset', systemRole: 'bank' },
  { code: '1100', name: 'Accounts receivable', type: 'asset', systemRole: 'accounts_receivable' },
  { code: '1200', name: 'Inventory', type: 'asset' },
  { code: '1300', name: 'Prepaid expenses', type: 'asset' },
  {
    code: '1400',
    name: 'Input VAT / sales tax recoverable',
    type: 'asset',
    systemRole: 'input_tax',
  },
  { code: '1500', name: 'Equipment', type: 'asset' },
  { code: '1510', name: 'Accumulated depreciation', type: 'asset' },
  { code: '2000', name: 'Accounts payable', type: 'liability', systemRole: 'accounts_payable' },
  { code: '2100', name: 'Accrued liabilities', type: 'liability' },
  {
    code: '2200',
    name: 'Output VAT / sales tax payable',
    type: 'liability',
    systemRole: 'output_tax',
  },
  { code: '2300', name: 'Payroll liabilities', type: 'liability' },
  { code: '2500', name: 'Loans payable', type: 'liability' },
  { code: '3000', name: "Owner's equity", type: 'equity', systemRole: 'equity' },
  { code: '3100', name: 'Retained earnings', type: 'equity', systemRole: 'retained_earnings' },
  { code: '4000', name: 'Sales revenue', type: 'revenue', systemRole: 'sales' },
  { code: '4100', name: 'Service revenue', type: 'revenue' },
  { code: '4900', name: 'Other income', type: 'revenue' },
  { code: '5000', name: 'Cost of goods sold', type: 'expense' },
  { code: '6000', name: 'Rent', type: 'expense' },
  { code: '6100', name: 'Utilities', type: 'expense' },
  { code: '6200', name: 'Office supplies', type: 'expense' },
  { code: '6300', name: 'Software and subscriptions', type: 'expense' },
  { code: '6400', name: 'Professional fees', type: 'expense' },
  { code: '6500', name: 'Travel', type: 'expense' },
  { code: '6600', name: 'Advertising', type: 'expense' },
  { code: '6700', name: 'Bank fees', type: 'expense' },
  { code: '6800', name: 'Insurance', type: 'expense' },
  { code: '6900', name: 'Wages and salaries', type: 'expense' },
  { code: '7000', name: 'Depreciation', type: 'expense' },
  { code: '7900', name: 'Other expenses', type: 'expense', systemRole: 'default_expense' },
];

export const DEFAULT_PAYMENT_TERMS = [
  { code: 'DUE_ON_RECEIPT', name: 'Due on receipt', dueDays: 0 },
  { code: 'NET15', name: 'Net 15', dueDays: 15 },
  { code: 'NET30', name: 'Net 30', dueDays: 30 },
  { code: 'NET60', name: 'Net 60', dueDays: 60 },
  {
    code: '2_10_NET30',
    name: '2% 10, net 30',
    dueDays: 30,
    discountDays: 10,
    discountBasisPoints: 200,
  },
] as const;

export function accountId(orgId: string, code: string): string {
  return `acc-${orgId}-${code}`;
}
export function paymentTermsId(orgId: string, code: string): string {
  return `terms-${orgId}-${code}`;
}
