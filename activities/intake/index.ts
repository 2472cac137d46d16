/**
 * Intake: bank statement files and inbound email turned into typed, checked payloads for the
 * events domain. Pure parsers (no database). Storing an email's attachments through the
 * document ingestion is the callers' (client/email-attachments.ts, client/receive-email.ts).
 */
export {
  importStatementFile,
  parseStatementFile,
  detectStatementFormat,
  MAX_STATEMENT_BYTES,
} from './import-statement';
export type { ImportStatementInput } from './import-statement';
export * from './statement';
export { CsvMappingSchema, type CsvMapping, type CsvImportOptions } from './csv';
export { CSV_MAPPINGS } from './csv-mappings';
export {
  parseInboundEmail,
  emailMetadata,
  InboundEmailSchema,
  type InboundEmail,
  type EmailParseResult,
} from './email';
export { processMailFolder, watchMailFolder, type MailFolderOutcome } from './mail-folder';
export * from './event-payloads';
