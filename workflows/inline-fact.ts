/**
 * The inline XBRL fact model: what the parser (activities/documents/inline-xbrl.ts) reads out of
 * a filing, what db/repositories/filing-facts.ts stores per (org, document), and what the
 * analysis reads back as citable evidence. Types only, no behaviour.
 */

/** Why one fact is left out while the others stand. */
export const FactRefusalType = {
  MissingName: 'MissingName',
  UnknownPrefix: 'UnknownPrefix',
  MissingContext: 'MissingContext',
  MissingUnit: 'MissingUnit',
  InvalidNumber: 'InvalidNumber',
  InvalidScale: 'InvalidScale',
  ContinuationCycle: 'ContinuationCycle',
  ContinuationMissing: 'ContinuationMissing',
  /** The element was still open when the document ended (a truncated file). */
  Unclosed: 'Unclosed',
  /** A period date that is not a calendar date (yyyy-mm-dd). */
  InvalidPeriod: 'InvalidPeriod',
  /** A second fact with an id already used: ids name facts in citations. */
  DuplicateId: 'DuplicateId',
  /** Inside more than MAX_OPEN_ELEMENTS open facts and continuations (a hostile file). */
  TooDeeplyNested: 'TooDeeplyNested',
} as const;
export type FactRefusalType = (typeof FactRefusalType)[keyof typeof FactRefusalType];

export type FactPeriod =
  | { type: 'instant'; instant: string }
  | { type: 'duration'; start: string; end: string }
  | { type: 'forever' };

export interface FactDimension {
  /** Prefixed QName as the filing writes it, e.g. `us-gaap:StatementBusinessSegmentsAxis`. */
  dimension: string;
  /** Explicit member QName. */
  member?: string;
  /** Typed member: the text of its value element. */
  typedValue?: string;
}

export interface FactLocation {
  /** 0-based page of the stored text, and [start, end) character offsets in it. */
  page: number;
  start: number;
  end: number;
}

export interface InlineFact {
  id: string;
  /** Prefixed name as written (`us-gaap:Revenues`) and the namespace its prefix resolves to. */
  concept: string;
  conceptNs: string;
  numeric: boolean;
  /** Exact decimal string (after scale and sign) for numeric facts; text for others; null if nil. */
  value: string | null;
  /** Long text blocks keep their first MAX_TEXT_VALUE characters; the pages hold the rest. */
  valueTruncated: boolean;
  contextId: string;
  unitId: string | null;
  /** `iso4217:USD`, `iso4217:USD/xbrli:shares`; null for non-numeric facts. */
  unit: string | null;
  decimals: string | null;
  scale: number | null;
  sign: '-' | null;
  format: string | null;
  period: FactPeriod;
  /** Sorted by dimension; empty for company totals. */
  dimensions: FactDimension[];
  displayedText: string;
  hidden: boolean;
  /** Null for a hidden fact, unless a `-sec-ix-hidden` element displays it. */
  location: FactLocation | null;
  /** Ids of facts with the same concept, period, dimensions and unit folded into this one. */
  duplicateIds: string[];
}

export interface RefusedFact {
  id: string | null;
  concept: string | null;
  type: FactRefusalType;
  message: string;
}

export interface DeiSummary {
  registrantName?: string;
  cik?: string;
  documentType?: string;
  fiscalYearFocus?: string;
  fiscalPeriodFocus?: string;
  periodEndDate?: string;
}

export interface InlineXbrlIssue {
  type: 'InconsistentDuplicate' | 'UntransformedFormat' | 'TruncatedDocument';
  factId?: string;
  message: string;
}
