import { join } from 'node:path';
import { useSeededWorker } from './support/seeded-worker';
import { ORG, SAMPLES } from './support/fixtures';
import { ingestFile } from '../client/documents';
import { EventsClient } from '../client/events-client';
import { getRunRecord, runsOfEvent } from '../db/repositories/agent-runs';

/**
 * The shipped document analyst end to end: a document.received event runs the real analysis
 * workflow for the configured question set and records the cited outcome on the run.
 */
const env = useSeededWorker();

it('answers the configured question set on a received filing and records the outcome', async () => {
  const deps = env.deps();
  await ingestFile(deps, { orgId: ORG, path: join(SAMPLES, 'northwind-2024-10k.txt') });
  const events = new EventsClient(deps.client, deps.db, { taskQueue: deps.taskQueue });
  const a = await events.acceptEvent({
    orgId: ORG,
    type: 'document.received',
    source: 'email',
    payload: { documentId: 'northwind-2024-10k' },
  });
  const done = await events.result(a.workflowId);
  expect(done).toMatchObject({ state: 'completed', attempts: 1 });
  const [run] = await runsOfEvent(deps.db, ORG, a.eventId);
  const record = (await getRunRecord(deps.db, ORG, run!.id))!;
  expect(record.run).toMatchObject({
    agentType: 'document_analyst',
    state: 'completed',
    outcome: 'succeeded',
  });
  const output = record.run.output as {
    summary: string;
    data: {
      answers: { question: string; outcome: string; answer: string | null; requestId: string }[];
    };
  };
  expect(output.summary).toBe('1 question(s): 1 delivered, 0 with a reviewer');
  expect(output.data.answers).toHaveLength(1);
  expect(output.data.answers[0]).toMatchObject({
    question: 'What is the FY2024 net sales (in USD millions)?',
    outcome: 'delivered',
  });
  expect(output.data.answers[0]!.answer).toMatch(/\d/);
  expect(record.progress.map((p) => p.message)).toEqual([
    'analysing northwind-2024-10k with question set headline',
    'extract_metric: delivered',
  ]);
});
