ALTER TABLE "gateway_submissions" DROP CONSTRAINT "gateway_submissions_submitter";--> statement-breakpoint
ALTER TABLE "analysis_results" DROP CONSTRAINT "analysis_results_request_id_analysis_requests_request_id_fk";
--> statement-breakpoint
ALTER TABLE "review_decisions" DROP CONSTRAINT "review_decisions_request_id_analysis_requests_request_id_fk";
--> statement-breakpoint
ALTER TABLE "analysis_requests" DROP CONSTRAINT "analysis_requests_pkey";--> statement-breakpoint
ALTER TABLE "analysis_results" DROP CONSTRAINT "analysis_results_pkey";--> statement-breakpoint
ALTER TABLE "review_decisions" DROP CONSTRAINT "review_decisions_pkey";--> statement-breakpoint
ALTER TABLE "journal_entries" ALTER COLUMN "submission_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "analysis_requests" ADD CONSTRAINT "analysis_requests_org_request" PRIMARY KEY("org_id","request_id");--> statement-breakpoint
ALTER TABLE "analysis_results" ADD CONSTRAINT "analysis_results_org_request" PRIMARY KEY("org_id","request_id");--> statement-breakpoint
ALTER TABLE "review_decisions" ADD CONSTRAINT "review_decisions_org_request" PRIMARY KEY("org_id","request_id");--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "org_seq" bigint;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "row_hash" text;--> statement-breakpoint
ALTER TABLE "analysis_results" ADD CONSTRAINT "analysis_results_request_same_org" FOREIGN KEY ("org_id","request_id") REFERENCES "public"."analysis_requests"("org_id","request_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_decisions" ADD CONSTRAINT "review_decisions_request_same_org" FOREIGN KEY ("org_id","request_id") REFERENCES "public"."analysis_requests"("org_id","request_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_org_seq" ON "audit_log" USING btree ("org_id","org_seq");--> statement-breakpoint
ALTER TABLE "gateway_submissions" ADD CONSTRAINT "gateway_submissions_lane_approvals" CHECK ("gateway_submissions"."submitter_kind" = 'system' or ("gateway_submissions"."lane" = 'low' and "gateway_submissions"."required_approvals" = 0) or ("gateway_submissions"."lane" = 'moderate' and "gateway_submissions"."required_approvals" >= 1) or ("gateway_submissions"."lane" = 'high' and "gateway_submissions"."required_approvals" >= 2));--> statement-breakpoint
ALTER TABLE "gateway_submissions" ADD CONSTRAINT "gateway_submissions_submitter" CHECK (("gateway_submissions"."submitter_kind" = 'user' and "gateway_submissions"."submitter_user_id" is not null) or ("gateway_submissions"."submitter_kind" = 'agent' and "gateway_submissions"."agent_instance_id" is not null and "gateway_submissions"."operator_user_id" is not null) or ("gateway_submissions"."submitter_kind" = 'system' and "gateway_submissions"."submitter_user_id" is null and "gateway_submissions"."agent_instance_id" is null));