import type { WriteKind } from './writes';

/**
 * Risk scoring by explicit rules. Each rule that fires adds points and names the lane it
 * demands; the submission's lane is the highest demanded, its score the capped sum. The
 * facts come from evaluating the write against the database; the thresholds are per org.
 */
export const LANES = ['low', 'moderate', 'high'] as const;
export type Lane = (typeof LANES)[number];

export interface RiskSettings {
  moderateAmountMinor: string;
  highAmountMinor: string;
  highLaneApprovals: number;
}

export interface RiskFacts {
  kind: WriteKind;
  /** Gross amount moved per currency (an entry's debits; a payment's amount). */
  amounts: { currency: string; amountMinor: string }[];
  /** Money leaves the org or a filing goes out: cannot be taken back by a reversal. */
  irreversible: boolean;
  /** Payee bank details created or changed by this write. */
  payeeBankDetails: 'new' | 'changed' | null;
  /** Payee bank details (of a payment's vendor) changed within the recent window. */
  payeeBankDetailsRecentlyChanged: boolean;
  /** Contact data on a reserved/placeholder domain (example.com, .test, .invalid, ...). */
  placeholderContacts: string[];
  /** Accounts this write posts to for the first time. */
  firstPostingAccounts: string[];
  reversal: boolean;
  periodChange: 'close' | 'reopen' | null;
  /** A new counterparty or tax rule enters master data. */
  newMasterData: boolean;
  /** The chart of accounts changes; 'remap' moves a system role other writes post through. */
  chartChange?: 'create' | 'update' | 'remap' | null;
  /** A role is granted or revoked in the org. */
  roleChange?: { action: 'grant' | 'revoke'; role: string } | null;
  /** The org's risk thresholds change; 'loosen' lets more writes through with fewer approvals. */
  settingsChange?: 'tighten' | 'loosen' | null;
}

/** Roles that can approve, grant and change settings: granting one is a high-risk write. */
const PRIVILEGED_ROLES = new Set(['owner', 'admin']);

export interface FiredRule {
  rule: string;
  lane: Lane;
  points: number;
  detail: string;
}

export interface RiskAssessment {
  score: number;
  lane: Lane;
  requiredApprovals: number;
  rules: FiredRule[];
}

export const DEFAULT_RISK_SETTINGS: RiskSettings = {
  moderateAmountMinor: '500000',
  highAmountMinor: '2500000',
  highLaneApprovals: 2,
};

const laneRank = (l: Lane): number => LANES.indexOf(l);

export function scoreRisk(f: RiskFacts, s: RiskSettings): RiskAssessment {
  const rules: FiredRule[] = [];
  const fire = (rule: string, lane: Lane, points: number, detail: string) =>
    rules.push({ rule, lane, points, detail });
  const high = BigInt(s.highAmountMinor);
  const moderate = BigInt(s.moderateAmountMinor);
  for (const a of f.amounts) {
    const amt = BigInt(a.amountMinor);
    if (amt >= high)
      fire(
        'amount_at_or_above_high_threshold',
        'high',
        50,
        `${a.amountMinor} ${a.currency} ≥ ${s.highAmountMinor}`,
      );
    else if (amt >= moderate)
      fire(
        'amount_at_or_above_moderate_threshold',
        'moderate',
        25,
        `${a.amountMinor} ${a.currency} ≥ ${s.moderateAmountMinor}`,
      );
  }
  if (f.irreversible)
    fire('irreversible_write', 'high', 40, `${f.kind} cannot be undone by a reversal`);
  if (f.payeeBankDetails)
    fire(
      'payee_bank_details_' + f.payeeBankDetails,
      'high',
      40,
      `payee bank details ${f.payeeBankDetails === 'new' ? 'added' : 'changed'}`,
    );
  if (f.payeeBankDetailsRecentlyChanged)
    fire(
      'payee_bank_details_recently_changed',
      'high',
      30,
      'the payee bank details changed in the last 30 days',
    );
  if (f.placeholderContacts.length > 0)
    fire(
      'placeholder_contact_data',
      'high',
      40,
      `reserved-domain contact data: ${f.placeholderContacts.join(', ')}`,
    );
  if (f.firstPostingAccounts.length > 0)
    fire(
      'first_posting_to_account',
      'moderate',
      15,
      `first posting to ${f.firstPostingAccounts.join(', ')}`,
    );
  if (f.reversal) fire('reversal_of_posted_entry', 'moderate', 15, 'corrects posted books');
  if (f.periodChange === 'close')
    fire('period_close', 'moderate', 20, 'closing a period stops all postings to it');
  if (f.periodChange === 'reopen')
    fire('period_reopen', 'high', 40, 'reopening changes closed books');
  if (f.newMasterData)
    fire('new_master_data', 'moderate', 10, `${f.kind} adds a counterparty or rule`);
  if (f.chartChange === 'remap')
    fire(
      'system_account_remapped',
      'high',
      40,
      'moves a system role: later postings of other writes land on another account',
    );
  else if (f.chartChange)
    fire('chart_of_accounts_change', 'moderate', 10, `${f.kind} changes the chart of accounts`);
  if (f.roleChange?.action === 'grant' && PRIVILEGED_ROLES.has(f.roleChange.role))
    fire('privileged_role_grant', 'high', 40, `grants ${f.roleChange.role}`);
  else if (f.roleChange?.action === 'grant')
    fire('role_grant', 'moderate', 20, `grants ${f.roleChange.role}`);
  if (f.roleChange?.action === 'revoke')
    fire('role_revoke', 'moderate', 15, `revokes ${f.roleChange.role}`);
  if (f.settingsChange === 'loosen')
    fire(
      'risk_settings_loosened',
      'high',
      40,
      'raises a threshold or lowers the approvals the high lane needs',
    );
  else if (f.settingsChange)
    fire('risk_settings_change', 'moderate', 20, 'changes the risk thresholds');
  const lane = rules.reduce<Lane>(
    (acc, r) => (laneRank(r.lane) > laneRank(acc) ? r.lane : acc),
    'low',
  );
  const score = Math.min(
    100,
    rules.reduce((n, r) => n + r.points, 0),
  );
  const requiredApprovals = lane === 'low' ? 0 : lane === 'moderate' ? 1 : s.highLaneApprovals;
  return { score, lane, requiredApprovals, rules };
}
