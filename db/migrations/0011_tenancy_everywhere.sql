-- Every tenant table keyed by (org, id). Children gain org_id, backfilled from their parent
-- before it becomes NOT NULL (an existing .data keeps its documents, events and runs).
ALTER TABLE "document_files" ADD COLUMN "org_id" text;--> statement-breakpoint
ALTER TABLE "document_pages" ADD COLUMN "org_id" text;--> statement-breakpoint
ALTER TABLE "event_transitions" ADD COLUMN "org_id" text;--> statement-breakpoint
ALTER TABLE "agent_run_progress" ADD COLUMN "org_id" text;--> statement-breakpoint
ALTER TABLE "agent_run_submissions" ADD COLUMN "org_id" text;--> statement-breakpoint
ALTER TABLE "agent_run_transitions" ADD COLUMN "org_id" text;--> statement-breakpoint
UPDATE "document_files" f SET "org_id" = d."org_id" FROM "documents" d WHERE d."id" = f."document_id";--> statement-breakpoint
UPDATE "document_pages" p SET "org_id" = d."org_id" FROM "documents" d WHERE d."id" = p."document_id";--> statement-breakpoint
UPDATE "event_transitions" t SET "org_id" = e."org_id" FROM "events" e WHERE e."id" = t."event_id";--> statement-breakpoint
UPDATE "agent_run_progress" x SET "org_id" = r."org_id" FROM "agent_runs" r WHERE r."id" = x."run_id";--> statement-breakpoint
UPDATE "agent_run_submissions" x SET "org_id" = r."org_id" FROM "agent_runs" r WHERE r."id" = x."run_id";--> statement-breakpoint
UPDATE "agent_run_transitions" x SET "org_id" = r."org_id" FROM "agent_runs" r WHERE r."id" = x."run_id";--> statement-breakpoint
ALTER TABLE "document_files" ALTER COLUMN "org_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "document_pages" ALTER COLUMN "org_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "event_transitions" ALTER COLUMN "org_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_run_progress" ALTER COLUMN "org_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_run_submissions" ALTER COLUMN "org_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_run_transitions" ALTER COLUMN "org_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "chunks" DROP CONSTRAINT "chunks_doc_page_index";--> statement-breakpoint
ALTER TABLE "chunks" DROP CONSTRAINT "chunks_document_id_documents_id_fk";--> statement-breakpoint
ALTER TABLE "document_files" DROP CONSTRAINT "document_files_document_id_documents_id_fk";--> statement-breakpoint
ALTER TABLE "document_pages" DROP CONSTRAINT "document_pages_document_id_documents_id_fk";--> statement-breakpoint
ALTER TABLE "event_transitions" DROP CONSTRAINT "event_transitions_event_id_events_id_fk";--> statement-breakpoint
ALTER TABLE "agent_run_progress" DROP CONSTRAINT "agent_run_progress_run_id_agent_runs_id_fk";--> statement-breakpoint
ALTER TABLE "agent_run_submissions" DROP CONSTRAINT "agent_run_submissions_run_id_agent_runs_id_fk";--> statement-breakpoint
ALTER TABLE "agent_run_transitions" DROP CONSTRAINT "agent_run_transitions_run_id_agent_runs_id_fk";--> statement-breakpoint
ALTER TABLE "document_pages" DROP CONSTRAINT "document_pages_document_id_page_pk";--> statement-breakpoint
ALTER TABLE "event_transitions" DROP CONSTRAINT "event_transitions_event_id_seq_pk";--> statement-breakpoint
ALTER TABLE "agent_run_progress" DROP CONSTRAINT "agent_run_progress_run_id_seq_pk";--> statement-breakpoint
ALTER TABLE "agent_run_submissions" DROP CONSTRAINT "agent_run_submissions_run_id_submission_id_pk";--> statement-breakpoint
ALTER TABLE "agent_run_transitions" DROP CONSTRAINT "agent_run_transitions_run_id_seq_pk";--> statement-breakpoint
ALTER TABLE "document_files" DROP CONSTRAINT "document_files_pkey";--> statement-breakpoint
ALTER TABLE "documents" DROP CONSTRAINT "documents_pkey";--> statement-breakpoint
ALTER TABLE "events" DROP CONSTRAINT "events_pkey";--> statement-breakpoint
ALTER TABLE "agent_runs" DROP CONSTRAINT "agent_runs_pkey";--> statement-breakpoint
ALTER TABLE "model_calls" DROP CONSTRAINT "model_calls_pkey";--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_org_pk" PRIMARY KEY("org_id","id");--> statement-breakpoint
ALTER TABLE "document_files" ADD CONSTRAINT "document_files_org_pk" PRIMARY KEY("org_id","document_id");--> statement-breakpoint
ALTER TABLE "document_pages" ADD CONSTRAINT "document_pages_org_pk" PRIMARY KEY("org_id","document_id","page");--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_org_pk" PRIMARY KEY("org_id","id");--> statement-breakpoint
ALTER TABLE "event_transitions" ADD CONSTRAINT "event_transitions_org_pk" PRIMARY KEY("org_id","event_id","seq");--> statement-breakpoint
ALTER TABLE "agent_runs" ADD CONSTRAINT "agent_runs_org_pk" PRIMARY KEY("org_id","id");--> statement-breakpoint
ALTER TABLE "agent_run_progress" ADD CONSTRAINT "agent_run_progress_org_pk" PRIMARY KEY("org_id","run_id","seq");--> statement-breakpoint
ALTER TABLE "agent_run_submissions" ADD CONSTRAINT "agent_run_submissions_org_pk" PRIMARY KEY("org_id","run_id","submission_id");--> statement-breakpoint
ALTER TABLE "agent_run_transitions" ADD CONSTRAINT "agent_run_transitions_org_pk" PRIMARY KEY("org_id","run_id","seq");--> statement-breakpoint
ALTER TABLE "model_calls" ADD CONSTRAINT "model_calls_org_pk" PRIMARY KEY("org_id","id");--> statement-breakpoint
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_document_same_org" FOREIGN KEY ("org_id","document_id") REFERENCES "public"."documents"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_files" ADD CONSTRAINT "document_files_document_same_org" FOREIGN KEY ("org_id","document_id") REFERENCES "public"."documents"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_pages" ADD CONSTRAINT "document_pages_document_same_org" FOREIGN KEY ("org_id","document_id") REFERENCES "public"."documents"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_transitions" ADD CONSTRAINT "event_transitions_event_same_org" FOREIGN KEY ("org_id","event_id") REFERENCES "public"."events"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_run_progress" ADD CONSTRAINT "agent_run_progress_run_same_org" FOREIGN KEY ("org_id","run_id") REFERENCES "public"."agent_runs"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_run_submissions" ADD CONSTRAINT "agent_run_submissions_run_same_org" FOREIGN KEY ("org_id","run_id") REFERENCES "public"."agent_runs"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_run_transitions" ADD CONSTRAINT "agent_run_transitions_run_same_org" FOREIGN KEY ("org_id","run_id") REFERENCES "public"."agent_runs"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_org_doc_page_index" UNIQUE("org_id","document_id","page","chunk_index");
