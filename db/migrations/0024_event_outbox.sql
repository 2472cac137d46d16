CREATE TABLE "event_outbox" (
	"org_id" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"source" text NOT NULL,
	"payload" jsonb NOT NULL,
	"origin" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"handed_over_at" timestamp with time zone,
	"workflow_id" text,
	CONSTRAINT "event_outbox_org_pk" PRIMARY KEY("org_id","event_id")
);
--> statement-breakpoint
ALTER TABLE "event_outbox" ADD CONSTRAINT "event_outbox_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_outbox_not_handed_over" ON "event_outbox" USING btree ("created_at") WHERE "event_outbox"."handed_over_at" is null;