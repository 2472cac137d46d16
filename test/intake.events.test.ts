import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '../db/connection';
import { createTestDatabase } from './support/database';
import { ORG, seedOrgs } from './support/fixtures';
import { agentsDirWith, startRuntimeWorker, type RuntimeWorker } from './agent-runs.fixtures';
import { getEvent } from '../db/repositories/events';
import {
  importStatementAsEvents,
  processMailFolderAsEvents,
  receiveEmailAsEvent,
} from '../client/intake-client';

/**
 * Intake wired to events (issue 9 item 1): a connector's statement file and an inbound email
 * become events through acceptEvent — stored with their payload and state, deduplicated while
 * active — and a file that cannot be read becomes no event at all.
 */
const FIXTURES = join(__dirname, 'fixtures');
let database: Database;
let rt: RuntimeWorker;
let agents: { dir: string; cleanup(): void };

beforeAll(async () => {
  database = await createTestDatabase();
  await seedOrgs(database.db);
  // No agent subscribes to intake events here: they end `ignored`, which proves they arrived.
  agents = agentsDirWith({
    document_analyst: { base: 'document_analyst', config: { trigger_events: ['never.sent'] } },
  });
  rt = await startRuntimeWorker(database, { agentRuntime: { agentsDir: agents.dir } });
});
afterAll(async () => {
  await rt?.stop();
  await database?.close();
  agents?.cleanup();
});

const deps = () => ({ client: rt.client, db: database.db, taskQueue: rt.taskQueue });

describe('connector sync → connector.statement_imported events', () => {
  it('imports a two-statement MT940 file as two events carrying every line, in file order', async () => {
    const file = join(FIXTURES, 'statements', 'mt940', 'two-statements.sta');
    const r = await importStatementAsEvents(deps(), {
      orgId: ORG,
      connectorId: 'bank-sync-1',
      file: 'two-statements.sta',
      bytes: readFileSync(file),
    });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.format).toBe('mt940');
    expect(r.events).toHaveLength(2);
    expect(r.events.map((e) => e.status)).toEqual(['accepted', 'accepted']);
    // The event's own workflow records it; once terminal, its row is there.
    for (const e of r.events) expect((await rt.events.result(e.workflowId)).state).toBe('ignored');
    const stored = await Promise.all(r.events.map((e) => getEvent(database.db, ORG, e.eventId)));
    const payloads = stored.map(
      (s) => s?.payload as { file: { statementIndex: number }; statement: { lines: unknown[] } },
    );
    expect(payloads.map((p) => p.file.statementIndex)).toEqual([0, 1]);
    expect(payloads.reduce((n, p) => n + p.statement.lines.length, 0)).toBe(r.lines);
  });

  it('refuses an unbalanced statement whole: an error naming the file, and no event', async () => {
    const before = await database.pool.query('select count(*)::int as n from events');
    const r = await importStatementAsEvents(deps(), {
      orgId: ORG,
      connectorId: 'bank-sync-1',
      file: 'unbalanced.wrong.xml',
      bytes: readFileSync(join(FIXTURES, 'statements', 'camt', 'unbalanced.wrong.xml')),
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.file).toBe('unbalanced.wrong.xml');
    const after = await database.pool.query('select count(*)::int as n from events');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });
});

describe('inbound email → email.received events', () => {
  it('ingests the PDF and text attachments as documents and emits one event naming them', async () => {
    const r = await receiveEmailAsEvent(deps(), {
      orgId: ORG,
      raw: readFileSync(join(FIXTURES, 'email', 'multipart-pdf.eml')),
      channel: 'api',
    });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.payload.documents.map((d) => [d.filename, d.status])).toEqual([
      ['statement-table.pdf', 'ready'],
      ['remittance.txt', 'ready'],
    ]);
    expect(r.event.status).toBe('accepted');
    expect((await rt.events.result(r.event.workflowId)).state).toBe('ignored');
    const stored = await getEvent(database.db, ORG, r.event.eventId);
    expect(stored?.type).toBe('email.received');
    expect(JSON.stringify(stored?.payload)).not.toContain('"bytes"');
  });

  it('turns a watched folder into events: readable messages processed, a malformed one failed with its reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-mail-'));
    try {
      for (const f of ['plain.eml', 'malformed.eml'])
        copyFileSync(join(FIXTURES, 'email', f), join(dir, f));
      const outcomes = await processMailFolderAsEvents(deps(), { orgId: ORG, dir });
      expect(outcomes.map((o) => [o.file, o.status]).sort()).toEqual([
        ['malformed.eml', 'failed'],
        ['plain.eml', 'processed'],
      ]);
      expect(readdirSync(join(dir, 'processed'))).toEqual(['plain.eml']);
      expect(readdirSync(join(dir, 'failed')).sort()).toEqual([
        'malformed.eml',
        'malformed.eml.reason.txt',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
