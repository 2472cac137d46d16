/**
 * The bank transaction processor's classification, pure (it runs inside the agent run
 * workflow): a line's inputs are its date, amount, merchant descriptor, card and tax code —
 * never a label. Evidence is what people resolved before (the durable memory), the org's
 * configured rules and its vendors' default expense accounts. Nothing here knows a merchant.
 */

/** A merchant descriptor without store numbers, references and punctuation ("shell kings 587" → "shell kings"). */
export function merchantKey(raw: string): string {
  const cleaned = raw
    .toLowerCase()
    .replace(/[^a-z0-9& ]+/g, ' ')
    .split(/\s+/)
    .filter((t) => t.length > 0);
  const words = cleaned.filter((t) => !/\d/.test(t));
  const key = (words.length > 0 ? words : cleaned).join(' ').slice(0, 200);
  return key.length > 0 ? key : 'unknown';
}

/** A card's key: its last four digits ('' when the feed has none). */
export const cardKeyOf = (card: string | null) => (card ? card.replace(/\D/g, '').slice(-4) : '');

export interface ClassificationPolicy {
  /** Resolutions of this (merchant, card) needed, all to the same account. */
  minCardResolutions: number;
  /** A merchant people code to more accounts than this (org-wide) is multi-purpose: always asked. */
  maxMerchantAccounts: number;
  /** The account's share of all the merchant's resolutions (org-wide), at least. */
  minMerchantShare: number;
}
export const DEFAULT_POLICY: ClassificationPolicy = {
  minCardResolutions: 4,
  maxMerchantAccounts: 2,
  minMerchantShare: 0.8,
};

/** Human resolutions of one merchant: per card, per account, how many lines. */
export interface MerchantEvidence {
  byCard: Map<string, Map<string, number>>;
  total: Map<string, number>;
}
export function evidenceOf(
  rows: { merchantKey: string; cardKey: string; accountId: string; count: number }[],
): Map<string, MerchantEvidence> {
  const out = new Map<string, MerchantEvidence>();
  for (const r of rows) {
    let ev = out.get(r.merchantKey);
    if (!ev) out.set(r.merchantKey, (ev = { byCard: new Map(), total: new Map() }));
    let card = ev.byCard.get(r.cardKey);
    if (!card) ev.byCard.set(r.cardKey, (card = new Map()));
    card.set(r.accountId, (card.get(r.accountId) ?? 0) + r.count);
    ev.total.set(r.accountId, (ev.total.get(r.accountId) ?? 0) + r.count);
  }
  return out;
}

export interface Rule {
  /** A regular expression over the merchant key. */
  match: string;
  accountId: string;
  cardKey?: string;
}

export type Decision =
  | { kind: 'auto'; accountId: string; source: 'rule' | 'memory' | 'vendor'; reason: string }
  | {
      kind: 'ask';
      reason: string;
      /**
       * A thin pattern's single account: this card's few resolutions of the merchant all went
       * to it and the merchant passes the multi-purpose and share checks — only the count is
       * short. Never posted on its own; hybrid mode posts it when a model independently agrees.
       */
      thinCandidate?: string;
    };

const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

/**
 * Auto only on unanimous, sufficient evidence: a configured rule; or this card's resolutions
 * of this merchant, all to one account, at least `minCardResolutions` of them, for a merchant
 * that people code to few accounts with this one dominant; or an exact vendor match with no
 * conflicting resolution. Anything else — new, thin, conflicting (an ambiguous pattern) — is
 * asked again. The checks on the merchant come before the count, so a line reported `thin`
 * (with its `thinCandidate`) passed every check but the number of resolutions.
 */
export function decide(
  line: { merchantKey: string; cardKey: string },
  ctx: {
    evidence: Map<string, MerchantEvidence>;
    rules: { re: RegExp; accountId: string; cardKey?: string }[];
    vendors: Map<string, string>;
    policy: ClassificationPolicy;
  },
): Decision {
  const rule = ctx.rules.find(
    (r) => r.re.test(line.merchantKey) && (r.cardKey === undefined || r.cardKey === line.cardKey),
  );
  if (rule)
    return {
      kind: 'auto',
      accountId: rule.accountId,
      source: 'rule',
      reason: `rule ${rule.re.source}`,
    };
  const ev = ctx.evidence.get(line.merchantKey);
  const card = ev?.byCard.get(line.cardKey);
  if (ev && card && card.size > 1)
    return {
      kind: 'ask',
      reason: `ambiguous: this card's lines were resolved to ${card.size} accounts`,
    };
  if (ev && card && card.size === 1) {
    const [accountId, n] = [...card][0] as [string, number];
    const total = sum(ev.total);
    const share = (ev.total.get(accountId) ?? 0) / total;
    if (ev.total.size > ctx.policy.maxMerchantAccounts)
      return { kind: 'ask', reason: `multi-purpose merchant: ${ev.total.size} accounts org-wide` };
    if (share < ctx.policy.minMerchantShare)
      return {
        kind: 'ask',
        reason: `merchant share ${share.toFixed(2)} below ${ctx.policy.minMerchantShare}`,
      };
    if (n < ctx.policy.minCardResolutions)
      return {
        kind: 'ask',
        reason: `thin: ${n} resolution(s) for this card`,
        thinCandidate: accountId,
      };
    return {
      kind: 'auto',
      accountId,
      source: 'memory',
      reason: `${n} consistent resolution(s) for this card`,
    };
  }
  const vendorAccount = ctx.vendors.get(line.merchantKey);
  if (vendorAccount && (!ev || (ev.total.size === 1 && ev.total.has(vendorAccount))))
    return {
      kind: 'auto',
      accountId: vendorAccount,
      source: 'vendor',
      reason: 'vendor default expense account',
    };
  return { kind: 'ask', reason: ev ? 'no resolution for this card' : 'new merchant' };
}
