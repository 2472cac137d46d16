import { createAnalysisActivities } from '../activities/analysis';
import { LlmExtractor } from '../activities/analysis/llm-extraction';
import { createDocumentActivities } from '../activities/documents/ingest';
import { createIdentityActivities } from '../activities/identity';
import { decisionSecret } from '../activities/identity/decision-secret';
import { domainTaskQueue } from '../workflows/task-queue';
import type { DomainModule } from './domain';

/**
 * Analysis (SPEC Part A) and document ingestion: the analysis and ingestion workflows, the
 * tool activities, the documents' extraction, and the reviewer's decision-proof check.
 */
export const analysisDomain: DomainModule = {
  domain: 'analysis',
  taskQueue: (base) => domainTaskQueue(base, 'analysis'),
  workflows: ['analysisWorkflow', 'ingestionWorkflow'],
  cacheWeight: 1,
  activities: async ({ cfg, database }) => ({
    ...createAnalysisActivities({
      db: database.db,
      llm: LlmExtractor.fromConfig(cfg),
      inlineXbrlFacts: !cfg.ANALYSIS_IGNORE_INLINE_XBRL,
    }),
    ...createDocumentActivities(database.db, {
      timeLimitMs: cfg.DOCUMENT_EXTRACT_TIME_LIMIT_MS,
      maxMemoryMb: cfg.DOCUMENT_EXTRACT_MEMORY_MB,
      maxFacts: cfg.DOCUMENT_MAX_FACTS,
    }),
    ...createIdentityActivities({ secret: decisionSecret(cfg), db: database.db }),
  }),
};
