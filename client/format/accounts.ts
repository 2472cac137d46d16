/**
 * Ledger accounts as people name them: "6200 Travel", not "acc-demo-6200". A caller that
 * could not look an account up (deleted, another org) still shows the id, never nothing.
 */
export interface AccountName {
  code: string;
  name: string;
}

export type AccountNames = ReadonlyMap<string, AccountName>;

export function accountLabel(accountId: string, names: AccountNames): string {
  const a = names.get(accountId);
  return a ? `${a.code} ${a.name}` : accountId;
}

/** Every account id inside a text ("first posting to acc-demo-6200") replaced by its label. */
export function nameAccountsIn(text: string, names: AccountNames): string {
  let out = text;
  for (const [id, a] of names) out = out.split(id).join(`${a.code} ${a.name}`);
  return out;
}
