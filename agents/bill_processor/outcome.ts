import type { ToolOutput } from '../../workflows/agent-runs/tools';

/** What the bill processor read from a document (the bill_read tool's output). */
export type Extraction = ToolOutput<'bill_read'>;
export interface BillOutcome {
  documentId: string;
  /** not_a_bill: nothing bill-like was read (no number, no amount): handed to triage. */
  outcome: 'posted' | 'human_review' | 'vendor_unknown' | 'duplicate' | 'not_a_bill';
  reasons: string[];
  vendorId: string | null;
  submissionId: string | null;
  /** The request asking a person (review) or master data (delegation). */
  requestId: string | null;
  extraction: Extraction | null;
  /** For vendor_unknown: what master data needs to create the vendor. */
  delegation: {
    agentType: 'master_data';
    entity: 'vendor';
    name: string;
    emails: string[];
    taxIds: string[];
    /** The one account a structured invoice asks to be paid to (BT-84/BT-86), if it states one. */
    bankAccount?: { iban: string; bic?: string; currency: string };
    sourceDocumentId: string;
  } | null;
}
