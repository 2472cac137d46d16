import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { and, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/connection';
import { ingestFile } from '../../client/documents';
import { EventsClient } from '../../client/events-client';
import { GatewayClient, WriteRefusedError } from '../../client/gateway-client';
import { importStatementAsEvents } from '../../client/intake-client';
import { accountId } from '../../db/ledger/default-chart';
import { getRunRecord, runsOfOrg, setOrgAgentSettings } from '../../db/repositories/agent-runs';
import { upsertAgentIdentity } from '../../db/repositories/credentials';
import { events, humanRequests } from '../../db/schema';
import { findBillByNumber, getBankAccount, getVendor } from '../../db/repositories/master-data';
import type { GatewayWriteInput } from '../../workflows/gateway.contract';

/**
 * The agent half of `npm start`'s first run: a bank statement (camt.053) and a supplier's
 * structured e-invoice arrive as events, and the reconciliation, bank transaction, bill and
 * master-data agents handle them through the same gateway as people — settling the bill the
 * statement pays, posting or asking about the other lines, posting the e-invoice or delegating
 * its unknown vendor. Nothing is approved here: what waits, waits in the reviewer's inbox.
 */
export interface AgentsDemoDeps {
  db: Db;
  client: Client;
  taskQueue: string;
}

export interface AgentsDemoPeople {
  /** Operates the agents (their writes are submitted under this person). */
  clerk: string;
  /** Submits the demo's master data (bank accounts and vendors need an owner or admin). */
  owner: string;
  /** Sign the demo's master data (the agents' own writes are left for the inbox). */
  approvers: readonly string[];
}

export interface AgentRunRow {
  agent: string;
  trigger: string;
  state: string;
  detail: string;
}

export interface AgentsDemoOutcome {
  runs: AgentRunRow[];
  /** Human requests (questions, approvals of classifications) the agents left open. */
  openRequests: number;
  /** Events not yet settled when the demo stopped waiting (0 when everything settled). */
  unsettledEvents: number;
  /** What an earlier run on the same data already did (its events are duplicates now). */
  notes: string[];
}

const DEMO_IBAN = 'DE75512108001245126199';
const BANK_ACCOUNT = 'bank-demo-eur';
const KONTOR = 'ven-demo-kontor';

/** The agents the demo runs and the writes each may submit. */
const AGENT_GRANTS: readonly [string, readonly string[]][] = [
  ['reconciliation', ['bank_line.match', 'bill.settle']],
  ['bank_transaction_processor', ['journal.post_batch']],
  ['bill_processor', ['bill.post']],
  ['master_data', ['vendor.create', 'customer.create']],
];

const UNFINISHED_RUN_STATES = ['pending', 'running'] as const;

/**
 * Seeds the org for its agents (identities, the EUR bank account, a known vendor with one
 * open bill), then sends the statement and the e-invoice and waits until every event settled
 * and every run finished or waits for a person (at most `timeoutMs`).
 */
export async function runAgentsDemo(
  deps: AgentsDemoDeps,
  input: {
    orgId: string;
    people: AgentsDemoPeople;
    samplesDir: string;
    timeoutMs?: number;
  },
): Promise<AgentsDemoOutcome> {
  const { db } = deps;
  const { orgId, people } = input;
  const gateway = new GatewayClient(deps.client, db, deps.taskQueue);
  const attempt = Date.now().toString(36);
  await setOrgAgentSettings(db, { orgId, operatorUserId: people.clerk });
  for (const [agentId, allowedWorkflows] of AGENT_GRANTS)
    await upsertAgentIdentity(db, {
      orgId,
      agentId,
      operatorUserId: people.clerk,
      allowedWorkflows: [...allowedWorkflows],
      by: people.clerk,
    });

  // Master data a finance team would already have: its bank account, a vendor, an open bill.
  const apply = async (
    key: string,
    kind: string,
    payload: Record<string, unknown>,
    // A second `npm start` on the same .data finds the demo's master data in the books.
    exists: () => Promise<unknown>,
  ) => {
    if (await exists()) return;
    const write: GatewayWriteInput = {
      orgId,
      // The books say whether it exists (above); the key only names this attempt.
      idempotencyKey: `agents-demo-${key}-${attempt}`,
      submitter: { kind: 'user', userId: people.owner },
      source: { type: 'manual', id: 'npm-start' },
      kind,
      payload,
    };
    await gateway.submit(write);
    const view = await gateway.settle(orgId, write.idempotencyKey).catch((err: unknown) => {
      // Applied by an earlier run under another key: the entity is there, which is the point.
      if (err instanceof WriteRefusedError && err.type === 'DuplicateEntity') return null;
      throw err;
    });
    if (view === null) return;
    if (view.status === 'awaiting_approval')
      for (const approver of people.approvers.slice(0, view.risk?.requiredApprovals ?? 0))
        await gateway.approve(orgId, write.idempotencyKey, approver).catch(() => undefined);
    const result = await gateway.result(orgId, write.idempotencyKey);
    if (result.outcome !== 'applied')
      throw new Error(`demo seed ${kind} was not applied: ${result.outcome}`);
  };
  await apply(
    'bank-account',
    'bank_account.create',
    {
      bankAccountId: BANK_ACCOUNT,
      details: { holderName: 'Demo Org', iban: DEMO_IBAN, currency: 'EUR' },
      ledgerAccountId: accountId(orgId, '1010'),
    },
    () => getBankAccount(db, orgId, BANK_ACCOUNT),
  );
  await apply(
    'vendor-kontor',
    'vendor.create',
    {
      vendorId: KONTOR,
      name: 'Kontor Buerobedarf GmbH',
    },
    () => getVendor(db, orgId, KONTOR),
  );
  await apply(
    'bill-kontor',
    'bill.post',
    {
      vendorId: KONTOR,
      billNumber: 'KB-2026-311',
      billDate: '2026-10-28',
      dueDate: '2026-11-27',
      currency: 'EUR',
      lines: [{ description: 'Office supplies October', amountMinor: '23800' }],
    },
    () => findBillByNumber(db, orgId, KONTOR, 'KB-2026-311'),
  );

  const since = new Date();
  // A connector sync delivers the statement; the AP mailbox connector the e-invoice.
  const statementFile = join(input.samplesDir, 'statements', 'demo-bank-2026-11.camt053.xml');
  const imported = await importStatementAsEvents(
    { client: deps.client, db, taskQueue: deps.taskQueue },
    {
      orgId,
      connectorId: 'demo-bank',
      file: 'demo-bank-2026-11.camt053.xml',
      bytes: readFileSync(statementFile),
    },
  );
  if (!imported.ok)
    throw new Error(`demo statement refused: ${imported.error.code} ${imported.error.message}`);
  const notes: string[] = [];
  if (imported.events.every((e) => e.status === 'duplicate'))
    notes.push('the statement was imported by an earlier run (its events are duplicates)');
  const { document } = await ingestFile(deps, {
    orgId,
    path: join(input.samplesDir, 'bills', 'lieferant-nord-re-2026-0107.xml'),
  });
  const bill = await new EventsClient(deps.client, db, { taskQueue: deps.taskQueue }).acceptEvent({
    orgId,
    type: 'bill.received',
    source: 'connector',
    payload: { documentId: document.id },
  });
  if (bill.status === 'duplicate')
    notes.push(
      `the e-invoice's event is still being handled from an earlier run (${bill.duplicateOf})`,
    );

  // Quiet: every event of the demo handed to its agents (none pending, each one being
  // processed has its runs), and no run still working. A run waiting for a person or an
  // approval is where the demo leaves it; its event stays in progress until that answer.
  const deadline = Date.now() + (input.timeoutMs ?? 60_000);
  let unsettledEvents = 0;
  for (;;) {
    const recent = await db
      .select({ id: events.id, state: events.state })
      .from(events)
      .where(and(eq(events.orgId, orgId), gte(events.acceptedAt, since)));
    const runs = (await runsOfOrg(db, orgId)).filter((r) => r.createdAt >= since);
    const withRuns = new Set(runs.map((r) => r.eventId));
    const waiting = recent.filter(
      (e) => e.state === 'pending' || (e.state === 'processing' && !withRuns.has(e.id)),
    );
    const working = runs.filter((r) =>
      (UNFINISHED_RUN_STATES as readonly string[]).includes(r.state),
    );
    unsettledEvents = waiting.length;
    if ((waiting.length === 0 && working.length === 0) || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 200));
  }

  const finished = (await runsOfOrg(db, orgId))
    .filter((r) => r.createdAt >= since)
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const runs: AgentRunRow[] = [];
  for (const r of finished) {
    const record = await getRunRecord(db, orgId, r.id);
    const waitingWrites = (record?.submissions ?? [])
      .filter((x) => x.outcome === null)
      .map((x) => x.kind);
    runs.push({
      agent: r.agentType,
      trigger: (r.trigger as { eventType?: string }).eventType ?? '',
      state: r.state,
      detail:
        runDetail(r) ||
        (waitingWrites.length ? `waiting for approval: ${waitingWrites.join(', ')}` : ''),
    });
  }
  const [open] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(humanRequests)
    .where(
      and(
        eq(humanRequests.orgId, orgId),
        eq(humanRequests.status, 'open'),
        gte(humanRequests.createdAt, since),
      ),
    );
  return { runs, openRequests: open?.n ?? 0, unsettledEvents, notes };
}

/** The line a person reads for one run: the agent's own summary, else why it stopped. */
function runDetail(r: { output: unknown; outcome: string | null; reason: string | null }): string {
  const summary = (r.output as { summary?: unknown } | null)?.summary;
  const text = typeof summary === 'string' && summary ? summary : (r.reason ?? r.outcome ?? '');
  return text.replace(/\s+/g, ' ').trim();
}
