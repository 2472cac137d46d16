import type { Role } from '../../db/schema';
import type { EntryDraft, Q, Tx } from '../../db/repositories/ledger';
import type { EntityType } from '../../db/repositories/master-data';
import type { RiskAssessment, RiskFacts } from '../../workflows/gateway/risk';
import type {
  BillBatchEntry,
  JournalBatchEntry,
  WriteKind,
  WritePayload,
} from '../../workflows/gateway/writes';
import type { Effect } from '../../workflows/gateway.contract';

/**
 * What a write kind is (kinds.ts holds the registry of them): who may submit it, which entity
 * ids it references, and how it plans — reads only, giving the entries it would post and the
 * facts risk scoring needs — and applies (writes, inside the one apply transaction). The kinds
 * that live in modules of their own (journal-batch.ts, bill-credit.ts) take these types from
 * here, so they do not import the registry they belong to.
 */
export interface PlanContext {
  q: Q;
  orgId: string;
  submissionId: string;
  /** The business key (workflow id): journal entries are unique on it. */
  entryKey: string;
  sourceRef: string | null;
}
export interface Ref {
  path: string;
  entity: EntityType;
  id: string;
}
export interface Plan {
  entries: EntryDraft[];
  /** The date whose period must be open, with its payload path. */
  postingDate?: { date: string; path: string };
  facts: Partial<Omit<RiskFacts, 'kind' | 'amounts' | 'firstPostingAccounts'>>;
  /** The bank account money goes to (payments): shown to approvers and bound by the plan hash. */
  payee?: PayeeAccount;
  /** A kind that scores its parts itself (the batch kinds) gives its assessment here. */
  risk?: RiskAssessment;
  /** Parts split out to their own submissions (the batch kinds' entries that need a person). */
  splitOut?: SplitEntry[];
  write(tx: Tx): Promise<Effect[]>;
}
export interface SplitEntry {
  entryKey: string;
  /** Its index in the submitted batch. */
  index: number;
  lane: RiskAssessment['lane'];
  /** What the split-out submission carries: a batch of this one entry or bill. */
  entry: JournalBatchEntry | BillBatchEntry;
}
export interface PayeeAccount {
  bankAccountId: string;
  holderName: string;
  iban: string | null;
  accountNumber: string | null;
  routingCode: string | null;
  bic: string | null;
  currency: string;
}
export interface KindDef<K extends WriteKind> {
  submitRoles: Role[];
  refs(p: WritePayload<K>): Ref[];
  plan(ctx: PlanContext, p: WritePayload<K>): Promise<Plan>;
}
