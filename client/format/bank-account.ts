/**
 * Bank details as an approver should see them: the holder's name, and the IBAN or account
 * number masked except its last four characters — enough to compare with an invoice, not
 * enough to copy a payee's account off a screen.
 */
export interface BankAccountView {
  holderName: string;
  iban: string | null;
  accountNumber: string | null;
  bic?: string | null;
  currency?: string | null;
}

/** "DE89370400440532013000" → "•••• •••• •••• •••• •• 3000": all but the last four hidden. */
export function maskAccountNumber(value: string): string {
  const compact = value.replace(/\s+/g, '');
  if (compact.length <= 4) return compact;
  // The hidden part in groups of four, the visible four on their own: "•••• •••• •• 3000".
  const hidden = '•'.repeat(compact.length - 4).replace(/(.{4})(?=.)/g, '$1 ');
  return `${hidden} ${compact.slice(-4)}`;
}

/** "Harbor Supplies Ltd — IBAN •••• … 3000 (USD)". */
export function describeBankAccount(b: BankAccountView): string {
  const number = b.iban
    ? `IBAN ${maskAccountNumber(b.iban)}`
    : b.accountNumber
      ? `account ${maskAccountNumber(b.accountNumber)}`
      : 'no account number';
  return `${b.holderName} — ${number}${b.currency ? ` (${b.currency})` : ''}`;
}
