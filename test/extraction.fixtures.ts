// Synthetic statement pages in the pdf-text layout: one row per line, column gaps of
// three spaces, single spaces inside a cell, parentheses for negatives.
export const INCOME_PAGE = [
  'EXAMPLE CORP. AND SUBSIDIARIES',
  'CONSOLIDATED STATEMENTS OF OPERATIONS',
  '(In millions, except per share data)',
  'For the Years Ended December 31,',
  '2019   2018   2017',
  'Net revenues',
  'Product sales   $ 1,200   $ 1,100   $ 1,000',
  'Services   800   700   600',
  'Total net revenues   2,000   1,800   1,600',
  'Cost of revenues   1,150   1,050   980',
  'Gross profit   850   750   620',
  'Operating income   400   (20)   310',
  'Interest expense   (35)   (30)   (28)',
  'Income before income taxes   365   (50)   282',
  'Income tax expense (benefit)   73   (12)   60',
  'Net income   $ 292   $ (38)   $ 222',
  'Earnings per common share',
  'Basic   $ 1.46   $ (0.19)   $ 1.11',
  'Diluted   $ 1.44   $ (0.19)   $ 1.10',
  'Weighted-average number of shares outstanding',
  'Basic   200.0   199.5   200.1',
  'Diluted   202.8   199.5   201.9',
  'See accompanying notes.',
  'F-3',
].join('\n');

export const BALANCE_PAGE = [
  'EXAMPLE CORP. AND SUBSIDIARIES',
  'CONSOLIDATED BALANCE SHEETS',
  '(Amounts in millions, except share data)',
  'At December 31, 2019   At December 31, 2018',
  'Assets',
  'Current assets:',
  'Cash and cash equivalents   $ 310   $ 250',
  'Accounts receivable, net of allowances of $12 and $10, respectively   420   380',
  'Inventories, net   275   225',
  'Total current assets   1,005   855',
  'Property, plant and equipment, net   600   500',
  'Goodwill   1,200   1,200',
  'Total assets   $ 2,805   $ 2,555',
  'Liabilities and Shareholders’ Equity',
  'Accounts payable   $ 190   $ 170',
  'Total current liabilities   505   455',
  'Long-term debt, net   700   720',
  'Total liabilities   1,400   1,350',
  'Common stock, $0.01 par value, 500,000,000 shares authorized   2   2',
  'Total shareholders’ equity   1,405   1,205',
  'Total liabilities and shareholders’ equity   $ 2,805   $ 2,555',
].join('\n');

export const CASH_FLOW_PAGE = [
  'EXAMPLE CORP. AND SUBSIDIARIES',
  'CONSOLIDATED STATEMENTS OF CASH FLOWS',
  '(In millions)',
  'For the Years Ended December 31,',
  '2019   2018   2017',
  'Cash flows from operating activities:',
  'Net income   $ 292   $ (38)   $ 222',
  'Depreciation and amortization   90   85   80',
  'Inventories   (50)   (10)   5',
  'Net cash provided by operating activities   510   300   410',
  'Cash flows from investing activities:',
  'Purchases of property, plant and',
  'equipment   (190)   (150)   (120)',
  'Net cash used in investing activities   (180)   (140)   (110)',
  'Cash flows from financing activities:',
  'Dividends paid   (60)   (55)   —',
  'Repurchases of common stock   (100)   —   (40)',
].join('\n');

// An MD&A page repeating the income statement with a percentage column per period.
export const MDNA_PAGE = [
  'Item 7. Management’s Discussion and Analysis',
  'Results of operations (amounts in millions)',
  '2019   2018',
  'Total net revenues   2,000   100 %   1,800   100 %',
  'Operating income   400   20   (20)   (1)',
].join('\n');

export const CAPITAL_PAGE = [
  'Regulatory Capital Ratios',
  'The following table presents our capital ratios.',
  'December 31, 2022   December 31, 2021',
  'Common equity tier 1 capital ratio   10.5%   10.9%',
  'Tier 1 capital ratio   11.8%   12.1%',
  'Total capital ratio   13.6%   14.0%',
  'Tier 1 leverage ratio   9.2%   9.6%',
  'Supplementary leverage ratio   6.1%   6.4%',
  'Minimum CET1 capital ratio requirement   4.5%   4.5%',
].join('\n');

export function pagesOf(...texts: string[]): { page: number; text: string }[] {
  return texts.map((text, page) => ({ page, text }));
}
