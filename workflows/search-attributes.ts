import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * The platform's custom search attributes, shared by every workflow: an operator filters runs
 * by org, state and outcome in the Web UI and the CLI. They hold no personal data (they are
 * not encrypted by the payload codec). A module of its own so that a workflow which only
 * tags itself does not load another domain's contract.
 */
export const CsOrg = defineSearchAttributeKey('CsOrg', SearchAttributeType.KEYWORD);
export const CsState = defineSearchAttributeKey('CsState', SearchAttributeType.KEYWORD);
export const CsQueryType = defineSearchAttributeKey('CsQueryType', SearchAttributeType.KEYWORD);
export const CsConfidenceBucket = defineSearchAttributeKey(
  'CsConfidenceBucket',
  SearchAttributeType.KEYWORD,
);
export const CsOutcome = defineSearchAttributeKey('CsOutcome', SearchAttributeType.KEYWORD);
