CREATE TABLE "event_transitions" (
	"event_id" text NOT NULL,
	"seq" integer NOT NULL,
	"state" text NOT NULL,
	"detail" text,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "event_transitions_event_id_seq_pk" PRIMARY KEY("event_id","seq")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"type" text NOT NULL,
	"source" text NOT NULL,
	"payload" jsonb NOT NULL,
	"dedup_key" text NOT NULL,
	"workflow_id" text NOT NULL,
	"state" text NOT NULL,
	"duplicate_of" text,
	"causation" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"detail" text,
	"accepted_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_state_known" CHECK ("events"."state" in ('pending','processing','completed','failed','ignored','expired','duplicate')),
	CONSTRAINT "events_source_known" CHECK ("events"."source" in ('email','schedule','connector','rule','agent')),
	CONSTRAINT "events_duplicate_points" CHECK (("events"."state" = 'duplicate') = ("events"."duplicate_of" is not null))
);
--> statement-breakpoint
CREATE TABLE "agent_run_progress" (
	"run_id" text NOT NULL,
	"seq" integer NOT NULL,
	"message" text NOT NULL,
	"data" jsonb,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "agent_run_progress_run_id_seq_pk" PRIMARY KEY("run_id","seq")
);
--> statement-breakpoint
CREATE TABLE "agent_run_submissions" (
	"run_id" text NOT NULL,
	"submission_id" text NOT NULL,
	"kind" text NOT NULL,
	"outcome" text,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "agent_run_submissions_run_id_submission_id_pk" PRIMARY KEY("run_id","submission_id")
);
--> statement-breakpoint
CREATE TABLE "agent_run_transitions" (
	"run_id" text NOT NULL,
	"seq" integer NOT NULL,
	"state" text NOT NULL,
	"detail" text,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "agent_run_transitions_run_id_seq_pk" PRIMARY KEY("run_id","seq")
);
--> statement-breakpoint
CREATE TABLE "agent_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"agent_type" text NOT NULL,
	"event_id" text,
	"attempt" integer NOT NULL,
	"execution_mode" text NOT NULL,
	"state" text NOT NULL,
	"outcome" text,
	"reason" text,
	"trigger" jsonb NOT NULL,
	"output" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "agent_runs_state_known" CHECK ("agent_runs"."state" in ('pending','running','completed','failed','cancelled','timeout','waiting_approval'))
);
--> statement-breakpoint
CREATE TABLE "agents" (
	"agent_type" text PRIMARY KEY NOT NULL,
	"model_tier" text NOT NULL,
	"execution_mode" text NOT NULL,
	"max_concurrent_runs" integer NOT NULL,
	"timeout_minutes" integer NOT NULL,
	"trigger_events" jsonb NOT NULL,
	"allowed_tools" jsonb NOT NULL,
	"allowed_workflows" jsonb NOT NULL,
	"config" jsonb NOT NULL,
	"prompt" text NOT NULL,
	"config_hash" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"api_key_hash" text,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "model_calls" (
	"id" text PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"org_id" text NOT NULL,
	"agent_type" text NOT NULL,
	"month" text NOT NULL,
	"model_tier" text NOT NULL,
	"model" text NOT NULL,
	"status" text NOT NULL,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL,
	"cache_creation_tokens" integer DEFAULT 0 NOT NULL,
	"cache_read_tokens" integer DEFAULT 0 NOT NULL,
	"reserved_micro_usd" bigint NOT NULL,
	"cost_micro_usd" bigint DEFAULT 0 NOT NULL,
	"response" jsonb,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "model_calls_status_known" CHECK ("model_calls"."status" in ('reserved','recorded','released'))
);
--> statement-breakpoint
CREATE TABLE "org_agent_settings" (
	"org_id" text PRIMARY KEY NOT NULL,
	"operator_user_id" text,
	"max_concurrent_runs" integer,
	"monthly_budget_micro_usd" bigint
);
--> statement-breakpoint
ALTER TABLE "event_transitions" ADD CONSTRAINT "event_transitions_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_run_progress" ADD CONSTRAINT "agent_run_progress_run_id_agent_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."agent_runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_run_submissions" ADD CONSTRAINT "agent_run_submissions_run_id_agent_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."agent_runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_run_transitions" ADD CONSTRAINT "agent_run_transitions_run_id_agent_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."agent_runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_runs" ADD CONSTRAINT "agent_runs_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_agent_settings" ADD CONSTRAINT "org_agent_settings_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "events_active_dedup" ON "events" USING btree ("org_id","type","dedup_key") WHERE "events"."state" in ('pending','processing');--> statement-breakpoint
CREATE INDEX "events_org_state" ON "events" USING btree ("org_id","state");--> statement-breakpoint
CREATE INDEX "agent_runs_org_agent" ON "agent_runs" USING btree ("org_id","agent_type");--> statement-breakpoint
CREATE INDEX "agent_runs_event" ON "agent_runs" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "model_calls_run" ON "model_calls" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "model_calls_org_month" ON "model_calls" USING btree ("org_id","month");