import {
  formatDecimalMoney,
  formatMinorNumber,
  formatMoney,
  isCurrencyCode,
  minorToDecimal,
} from '../client/format/money';
import { localeFrom } from '../api/inbox/locale';
import { describeBankAccount, maskAccountNumber } from '../client/format/bank-account';
import { accountLabel, nameAccountsIn } from '../client/format/accounts';
import { laneInWords, ruleInWords } from '../client/format/risk-rules';
import { entryLinesText } from '../client/format/entry-lines';
import { describeWrite } from '../client/format/write-summary';

/** Pure: money, accounts, bank details and risk rules as a reviewer reads them. */
describe('money as people read it', () => {
  it('turns minor units into an exact decimal by the currency exponent, without floats', () => {
    expect(minorToDecimal('7500000', 'USD')).toBe('75000.00');
    expect(minorToDecimal('5', 'USD')).toBe('0.05');
    expect(minorToDecimal('-5', 'EUR')).toBe('-0.05');
    expect(minorToDecimal('1200', 'JPY')).toBe('1200');
    expect(minorToDecimal('1234', 'KWD')).toBe('1.234');
    expect(minorToDecimal(900719925474099312345n, 'USD')).toBe('9007199254740993123.45');
    expect(() => minorToDecimal('12.5', 'USD')).toThrow(/minor units/);
  });

  it("formats with the currency's symbol, exponent and thousands separators", () => {
    expect(formatMoney('7500000', 'USD')).toBe('$75,000.00');
    expect(formatMoney('7500000', 'EUR')).toBe('€75,000.00');
    expect(formatMoney('120000', 'JPY')).toBe('¥120,000');
    expect(formatMoney('7500000', 'EUR', 'de-DE')).toBe('75.000,00\u00a0€');
    // Beyond 2^53 the digits stay exact.
    expect(formatMinorNumber('900719925474099312345', 'USD')).toBe('9,007,199,254,740,993,123.45');
  });
});

describe('names and masked bank details', () => {
  const names = new Map([['acc-demo-6200', { code: '6200', name: 'Travel' }]]);
  it('names accounts by code and name, and keeps an unknown id visible', () => {
    expect(accountLabel('acc-demo-6200', names)).toBe('6200 Travel');
    expect(accountLabel('acc-x', names)).toBe('acc-x');
    expect(nameAccountsIn('first posting to acc-demo-6200', names)).toBe(
      'first posting to 6200 Travel',
    );
  });

  it('masks an IBAN except its last four characters', () => {
    expect(maskAccountNumber('DE89 3704 0044 0532 0130 00')).toBe('•••• •••• •••• •••• •• 3000');
    const shown = describeBankAccount({
      holderName: 'Harbor Supplies',
      iban: 'DE89370400440532013000',
      accountNumber: null,
      currency: 'EUR',
    });
    expect(shown).toMatch(/^Harbor Supplies — IBAN [• ]+3000 \(EUR\)$/);
    expect(shown).not.toContain('3704');
  });

  it('says risk rules in words with formatted thresholds', () => {
    expect(
      ruleInWords({
        rule: 'amount_at_or_above_high_threshold',
        lane: 'high',
        detail: '7500000 USD ≥ 2500000',
      }),
    ).toBe('Amount $75,000.00 is at or above the high-risk threshold of $25,000.00');
    expect(
      ruleInWords(
        {
          rule: 'first_posting_to_account',
          lane: 'moderate',
          detail: 'first posting to acc-demo-6200',
        },
        names,
      ),
    ).toBe('First posting to 6200 Travel');
    expect(laneInWords('high', 2)).toBe('High risk — 2 approvals');
  });

  it('aligns debits and credits in a text table', () => {
    const text = entryLinesText(
      [
        { accountId: 'acc-demo-6200', currency: 'USD', debit: '7500000', credit: '0' },
        { accountId: 'acc-demo-1010', currency: 'USD', debit: '0', credit: '7500000' },
      ],
      new Map([...names, ['acc-demo-1010', { code: '1010', name: 'Operating bank' }]]),
    );
    expect(text.split('\n')).toEqual([
      'Account              Cur      Debit     Credit',
      '6200 Travel          USD  75,000.00',
      '1010 Operating bank  USD             75,000.00',
    ]);
  });
});

describe('a write in words (CLI and MCP text)', () => {
  it('gives the lane, the rules, the entry and the masked payee', () => {
    const text = describeWrite(
      {
        kind: 'payment.send',
        risk: {
          lane: 'high',
          requiredApprovals: 2,
          rules: [
            {
              rule: 'amount_at_or_above_high_threshold',
              lane: 'high',
              detail: '7500000 EUR ≥ 2500000',
            },
            {
              rule: 'irreversible_write',
              lane: 'high',
              detail: 'payment.send cannot be undone by a reversal',
            },
          ],
        },
        entries: [
          {
            entryDate: '2026-12-01',
            memo: 'Pay Harbor Supplies',
            lines: [
              { accountId: 'acc-a-2000', currency: 'EUR', debit: '7500000', credit: '0' },
              { accountId: 'acc-a-1010', currency: 'EUR', debit: '0', credit: '7500000' },
            ],
          },
        ],
        payee: {
          holderName: 'Harbor Supplies',
          iban: 'DE89370400440532013000',
          accountNumber: null,
          currency: 'EUR',
        },
      },
      new Map([
        ['acc-a-2000', { code: '2000', name: 'Accounts payable' }],
        ['acc-a-1010', { code: '1010', name: 'Operating bank account' }],
      ]),
    );
    expect(text).toContain('payment.send — High risk — 2 approvals');
    expect(text).toContain(
      '  · Amount €75,000.00 is at or above the high-risk threshold of €25,000.00',
    );
    expect(text).toContain('  · Cannot be undone by a reversal');
    expect(text).toMatch(/2000 Accounts payable\s+EUR\s+75,000\.00\n/);
    expect(text).toContain('Payee: Harbor Supplies — IBAN •••• •••• •••• •••• •• 3000 (EUR)');
    expect(text).not.toMatch(/7500000|3704/);
  });
});

describe("amounts in the reader's locale", () => {
  it('takes the most preferred locale Intl can format from Accept-Language, else en-US', () => {
    expect(localeFrom('de-DE,de;q=0.9,en;q=0.8')).toBe('de-DE');
    expect(localeFrom('en;q=0.4, fr-CH;q=0.9')).toBe('fr-CH');
    expect(localeFrom(undefined)).toBe('en-US');
    expect(localeFrom('*')).toBe('en-US');
    expect(localeFrom('de-DE;q=0, !!')).toBe('en-US');
  });

  it("formats a decimal in major units in the currency's exponent, exactly", () => {
    expect(formatDecimalMoney('75000', 'EUR', 'de-DE')).toBe('75.000,00\u00a0€');
    expect(formatDecimalMoney('75000', 'USD')).toBe('$75,000.00');
    expect(formatDecimalMoney('1200.4', 'JPY')).toBe('¥1,200');
    expect(formatDecimalMoney('1.2345', 'KWD', 'en-US')).toMatch(/1\.235$/);
    expect(formatDecimalMoney('9007199254740993.01', 'USD')).toBe('$9,007,199,254,740,993.01');
    expect(formatDecimalMoney('12,5', 'EUR')).toBeNull();
    expect(isCurrencyCode('USD')).toBe(true);
    expect(isCurrencyCode('USD millions')).toBe(false);
    expect(isCurrencyCode('XYZ')).toBe(false);
  });
});
