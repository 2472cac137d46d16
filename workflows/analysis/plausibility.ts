import type { NumericClaim } from './evidence';
import { compareDecimal } from './decimal';

/**
 * Plausibility ranges per metric kind and per known metric: a value outside is not
 * necessarily wrong, but no machine should deliver it without a human looking.
 */
interface Range {
  min: string | null;
  max: string | null;
}

const BY_KIND: Record<NumericClaim['kind'], Range> = {
  money: { min: '-100000000000000', max: '100000000000000' },
  ratio_percent: { min: '-10000', max: '10000' },
  ratio: { min: '-10000', max: '10000' },
  count: { min: '0', max: '1000000000000000' },
  per_share: { min: '-100000', max: '100000' },
};

const CAPITAL_RATIO: Range = { min: '0', max: '100' };
const NON_NEGATIVE: Range = { min: '0', max: null };

const BY_METRIC: Record<string, Range> = {
  cet1_ratio: CAPITAL_RATIO,
  tier1_ratio: CAPITAL_RATIO,
  total_capital_ratio: CAPITAL_RATIO,
  leverage_ratio: CAPITAL_RATIO,
  slr: CAPITAL_RATIO,
  lcr: { min: '0', max: '1000' },
  nsfr: { min: '0', max: '1000' },
  revenue: NON_NEGATIVE,
  total_assets: NON_NEGATIVE,
  total_liabilities: NON_NEGATIVE,
  inventory: NON_NEGATIVE,
  accounts_payable: NON_NEGATIVE,
  accounts_receivable: NON_NEGATIVE,
  cash_and_equivalents: NON_NEGATIVE,
  shares_outstanding: NON_NEGATIVE,
  gross_margin: { min: '-1000', max: '100' },
  operating_margin: { min: '-1000', max: '100' },
  net_margin: { min: '-1000', max: '100' },
};

export interface PlausibilityResult {
  claimId: string;
  ok: boolean;
  reason: string | null;
}

export function checkPlausibility(claim: NumericClaim): PlausibilityResult {
  const ranges = [BY_KIND[claim.kind], claim.metric ? BY_METRIC[claim.metric] : undefined];
  for (const range of ranges) {
    if (!range) continue;
    if (range.min !== null && compareDecimal(claim.value, range.min) < 0) {
      return {
        claimId: claim.id,
        ok: false,
        reason: `${claim.label} = ${claim.value} ${claim.unit} is below the plausible minimum ${range.min}`,
      };
    }
    if (range.max !== null && compareDecimal(claim.value, range.max) > 0) {
      return {
        claimId: claim.id,
        ok: false,
        reason: `${claim.label} = ${claim.value} ${claim.unit} is above the plausible maximum ${range.max}`,
      };
    }
  }
  return { claimId: claim.id, ok: true, reason: null };
}
