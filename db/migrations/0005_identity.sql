CREATE TABLE "agent_identities" (
	"org_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"operator_user_id" text NOT NULL,
	"allowed_workflows" jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agent_identities_org_id_agent_id_pk" PRIMARY KEY("org_id","agent_id")
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"principal_kind" text NOT NULL,
	"user_id" text,
	"agent_org_id" text,
	"agent_id" text,
	"salt" text NOT NULL,
	"secret_hash" text NOT NULL,
	"label" text NOT NULL,
	"issued_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by" text,
	CONSTRAINT "api_keys_principal" CHECK (("api_keys"."principal_kind" = 'user' and "api_keys"."user_id" is not null and "api_keys"."agent_id" is null) or ("api_keys"."principal_kind" = 'agent' and "api_keys"."agent_org_id" is not null and "api_keys"."agent_id" is not null and "api_keys"."user_id" is null))
);
--> statement-breakpoint
CREATE TABLE "gateway_plan_revisions" (
	"submission_id" text NOT NULL,
	"revision" integer NOT NULL,
	"plan_hash" text NOT NULL,
	"lane" text NOT NULL,
	"required_approvals" integer NOT NULL,
	"risk" jsonb NOT NULL,
	"plan" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gateway_plan_revisions_submission_id_revision_pk" PRIMARY KEY("submission_id","revision"),
	CONSTRAINT "gateway_plan_revisions_lane_known" CHECK ("gateway_plan_revisions"."lane" in ('low','moderate','high'))
);
--> statement-breakpoint
CREATE TABLE "gateway_plan_votes" (
	"submission_id" text NOT NULL,
	"revision" integer NOT NULL,
	"plan_hash" text NOT NULL,
	"approver_user_id" text NOT NULL,
	"decision" text NOT NULL,
	"note" text,
	"decided_at" timestamp with time zone NOT NULL,
	CONSTRAINT "gateway_plan_votes_submission_id_revision_approver_user_id_pk" PRIMARY KEY("submission_id","revision","approver_user_id"),
	CONSTRAINT "gateway_plan_votes_decision_known" CHECK ("gateway_plan_votes"."decision" in ('approve','reject'))
);
--> statement-breakpoint
ALTER TABLE "agent_identities" ADD CONSTRAINT "agent_identities_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_identities" ADD CONSTRAINT "agent_identities_operator_user_id_users_id_fk" FOREIGN KEY ("operator_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_plan_revisions" ADD CONSTRAINT "gateway_plan_revisions_submission_id_gateway_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."gateway_submissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_plan_votes" ADD CONSTRAINT "gateway_plan_votes_submission_id_gateway_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."gateway_submissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_user" ON "api_keys" USING btree ("user_id");--> statement-breakpoint
-- A signed plan and a cast vote are evidence: the database refuses to change or remove them.
CREATE OR REPLACE FUNCTION gateway_plan_refuse_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER gateway_plan_revisions_no_change BEFORE UPDATE OR DELETE ON "gateway_plan_revisions"
  FOR EACH ROW EXECUTE FUNCTION gateway_plan_refuse_change();
--> statement-breakpoint
CREATE TRIGGER gateway_plan_votes_no_change BEFORE UPDATE OR DELETE ON "gateway_plan_votes"
  FOR EACH ROW EXECUTE FUNCTION gateway_plan_refuse_change();
