import {
  LANES,
  type FiredRule,
  type Lane,
  type RiskAssessment,
} from '../../workflows/gateway/risk';
import type { Effect } from '../../workflows/gateway.contract';
import type { SplitEntry } from './kind-def';

/**
 * What the batch kinds (journal.post_batch, bill.post_batch) share: one assessment for the
 * parts a batch applies, and the effects that report the parts it did not apply — already on
 * the books under their keys, or split out to submissions of their own.
 */
const laneRank = (l: Lane) => LANES.indexOf(l);

/** The batch's assessment: its entries' highest lane and score, each rule once with its count. */
export function aggregateRisk(
  entries: { key: string; risk: RiskAssessment }[],
  highLaneApprovals: number,
): RiskAssessment {
  const lane = entries.reduce<Lane>(
    (acc, e) => (laneRank(e.risk.lane) > laneRank(acc) ? e.risk.lane : acc),
    'low',
  );
  const byRule = new Map<string, { rule: FiredRule; keys: string[] }>();
  for (const e of entries)
    for (const r of e.risk.rules) {
      const g = byRule.get(r.rule);
      if (!g) byRule.set(r.rule, { rule: { ...r }, keys: [e.key] });
      else {
        g.keys.push(e.key);
        if (laneRank(r.lane) > laneRank(g.rule.lane)) g.rule.lane = r.lane;
        g.rule.points = Math.max(g.rule.points, r.points);
      }
    }
  const rules: FiredRule[] = [...byRule.values()].map(({ rule, keys }) => ({
    ...rule,
    detail:
      keys.length === 1
        ? `entry ${keys[0]}: ${rule.detail}`
        : `${keys.length} entries (${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ', …' : ''}); e.g. ${rule.detail}`,
  }));
  return {
    score: entries.reduce((m, e) => Math.max(m, e.risk.score), 0),
    lane,
    requiredApprovals: lane === 'low' ? 0 : lane === 'moderate' ? 1 : highLaneApprovals,
    rules,
  };
}

/** The effects of a batch's parts it did not apply: already posted, or split out. */
export function partsNotApplied(
  entityType: string,
  idOf: (key: string) => string,
  skippedKeys: string[],
  splitOut: SplitEntry[],
): Effect[] {
  return [
    ...skippedKeys.map((key) => ({ entityType, entityId: idOf(key), action: 'already_posted' })),
    ...splitOut.map((s) => ({ entityType, entityId: idOf(s.entryKey), action: 'split_out' })),
  ];
}
