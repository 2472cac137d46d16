ALTER TABLE "agent_identities" ADD COLUMN "updated_by" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "org_id" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;