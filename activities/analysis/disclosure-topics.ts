import type { DisclosureTopic } from '../../workflows/analysis/request';

/**
 * What each disclosure topic looks like in a filing. `adverse` patterns state the problem
 * itself (an auditor's substantial doubt, an identified material weakness); `mention`
 * patterns only show the topic is discussed; `negated` patterns state its absence and
 * must not be read as a finding.
 */
export interface TopicPatterns {
  adverse: RegExp[];
  negated: RegExp[];
  mention: RegExp[];
}

export const TOPIC_PATTERNS: Record<DisclosureTopic, TopicPatterns> = {
  going_concern: {
    adverse: [
      /substantial doubt (?:about|regarding|as to) (?:the company'?s|our|its) ability to continue as a going concern/i,
    ],
    negated: [/(?:no|not) substantial doubt/i, /alleviate[sd]? (?:the )?substantial doubt/i],
    mention: [/going concern/i],
  },
  material_weakness: {
    adverse: [
      /(?:identified|there (?:is|was|were)|existence of) (?:a )?material weakness(?:es)?(?! (?:was|were) not)/i,
      /material weakness(?:es)? in (?:our|the company'?s) internal control/i,
    ],
    negated: [
      /(?:no|not identify any|did not identify|were no) material weakness/i,
      /free of material weakness/i,
    ],
    mention: [/material weakness/i],
  },
  restatement: {
    adverse: [
      /(?:have|has) been restated/i,
      /restatement of (?:previously issued|our|the) (?:consolidated )?financial statements/i,
      /as restated/i,
    ],
    negated: [/no restatement/i],
    mention: [/restat(?:e|ed|ement)/i],
  },
  liquidity_risk: {
    adverse: [
      /(?:insufficient|inadequate) liquidity/i,
      /unable to (?:meet|fund) (?:our|its) (?:obligations|liquidity)/i,
    ],
    negated: [/sufficient liquidity/i, /adequate liquidity/i],
    mention: [/liquidity (?:risk|coverage|position|and capital resources)/i],
  },
  climate: {
    adverse: [/climate[- ]related (?:risks?|matters) (?:could|may|have) (?:materially|adversely)/i],
    negated: [],
    mention: [/climate change|climate[- ]related|greenhouse gas|carbon emissions/i],
  },
  litigation: {
    adverse: [
      /(?:we|the company) (?:recorded|accrued) (?:a )?(?:charge|liability|reserve) (?:for|related to) (?:the )?(?:litigation|settlement)/i,
      /adverse (?:judgment|verdict)/i,
    ],
    negated: [/not (?:a )?party to any material (?:pending )?legal proceedings/i],
    mention: [/legal proceedings|litigation|lawsuit/i],
  },
  cybersecurity: {
    adverse: [
      /(?:experienced|suffered) (?:a )?(?:material )?(?:cyber|security) (?:incident|breach|attack)/i,
    ],
    negated: [/not experienced any material cybersecurity incident/i],
    mention: [/cybersecurity|cyber[- ]attack|data breach/i],
  },
  capital_adequacy: {
    adverse: [
      /(?:below|did not meet|failed to meet) (?:the )?(?:minimum )?(?:regulatory )?capital requirements/i,
    ],
    negated: [
      /(?:met|meets|exceeded|exceed) (?:all )?(?:the )?(?:applicable )?(?:minimum )?(?:regulatory )?capital (?:requirements|ratios)/i,
      /well[- ]capitalized/i,
    ],
    mention: [/capital (?:ratio|adequacy|requirements)|tier 1|common equity tier 1/i],
  },
};
