CREATE TABLE "human_request_events" (
	"request_id" text NOT NULL,
	"seq" integer NOT NULL,
	"kind" text NOT NULL,
	"actor" text,
	"detail" text,
	"data" jsonb,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "human_request_events_request_id_seq_pk" PRIMARY KEY("request_id","seq"),
	CONSTRAINT "human_request_events_kind_known" CHECK ("human_request_events"."kind" in ('opened','reminded','reasked','refused','answered','expired','failed','cancelled','reescalated'))
);
--> statement-breakpoint
CREATE TABLE "human_request_notifications" (
	"request_id" text NOT NULL,
	"purpose" text NOT NULL,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"status" text NOT NULL,
	"detail" text,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "human_request_notifications_request_id_purpose_channel_pk" PRIMARY KEY("request_id","purpose","channel"),
	CONSTRAINT "human_request_notifications_status_known" CHECK ("human_request_notifications"."status" in ('sent','refused','failed'))
);
--> statement-breakpoint
CREATE TABLE "human_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"title" text NOT NULL,
	"question" text NOT NULL,
	"answer_schema" jsonb NOT NULL,
	"evidence" jsonb NOT NULL,
	"assignee_user_id" text,
	"route" text,
	"route_detail" text,
	"delegate_agent_type" text,
	"created_by_run_id" text,
	"created_by_agent_type" text,
	"created_by_workflow_id" text,
	"created_by_user_id" text,
	"callback" jsonb NOT NULL,
	"workflow_id" text NOT NULL,
	"link_kind" text,
	"link_workflow_id" text,
	"link_key" text,
	"dedup_key" text,
	"hop" integer DEFAULT 0 NOT NULL,
	"reminders_sent" integer DEFAULT 0 NOT NULL,
	"reasks" integer DEFAULT 0 NOT NULL,
	"answer" jsonb,
	"answered_by" text,
	"detail" text,
	"created_at" timestamp with time zone NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "human_requests_type_known" CHECK ("human_requests"."type" in ('approval','verification','master_data','configuration','classification','delegation','review')),
	CONSTRAINT "human_requests_status_known" CHECK ("human_requests"."status" in ('open','completed','expired','failed','cancelled')),
	CONSTRAINT "human_requests_route_known" CHECK ("human_requests"."route" is null or "human_requests"."route" in ('assignee','owner','admin','unrouted')),
	CONSTRAINT "human_requests_link_kind_known" CHECK ("human_requests"."link_kind" is null or "human_requests"."link_kind" in ('gateway_approval','analysis_review'))
);
--> statement-breakpoint
ALTER TABLE "agent_runs" DROP CONSTRAINT "agent_runs_state_known";--> statement-breakpoint
ALTER TABLE "human_request_events" ADD CONSTRAINT "human_request_events_request_id_human_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."human_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "human_request_notifications" ADD CONSTRAINT "human_request_notifications_request_id_human_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."human_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "human_requests" ADD CONSTRAINT "human_requests_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "human_requests_inbox" ON "human_requests" USING btree ("org_id","assignee_user_id","status");--> statement-breakpoint
CREATE INDEX "human_requests_run" ON "human_requests" USING btree ("created_by_run_id");--> statement-breakpoint
CREATE INDEX "human_requests_dedup" ON "human_requests" USING btree ("org_id","type","dedup_key","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "human_requests_link" ON "human_requests" USING btree ("link_kind","link_workflow_id");--> statement-breakpoint
ALTER TABLE "agent_runs" ADD CONSTRAINT "agent_runs_state_known" CHECK ("agent_runs"."state" in ('pending','running','completed','failed','cancelled','timeout','waiting_approval','waiting_human'));