CREATE TABLE "vendor_credits" (
	"id" text NOT NULL,
	"org_id" text NOT NULL,
	"vendor_id" text NOT NULL,
	"credit_number" text NOT NULL,
	"credit_date" date NOT NULL,
	"currency" text NOT NULL,
	"total_minor" bigint NOT NULL,
	"entry_id" text NOT NULL,
	"preceding_bill_number" text,
	"applied_bill_id" text,
	"applied_minor" bigint DEFAULT 0 NOT NULL,
	"submission_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vendor_credits_org_pk" PRIMARY KEY("org_id","id"),
	CONSTRAINT "vendor_credits_org_vendor_number" UNIQUE("org_id","vendor_id","credit_number"),
	CONSTRAINT "vendor_credits_total_positive" CHECK ("vendor_credits"."total_minor" > 0),
	CONSTRAINT "vendor_credits_applied_within_total" CHECK ("vendor_credits"."applied_minor" >= 0 and "vendor_credits"."applied_minor" <= "vendor_credits"."total_minor" and ("vendor_credits"."applied_minor" = 0 or "vendor_credits"."applied_bill_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "vendor_credits" ADD CONSTRAINT "vendor_credits_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_credits" ADD CONSTRAINT "vendor_credits_submission_id_gateway_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."gateway_submissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_credits" ADD CONSTRAINT "vendor_credits_vendor_same_org" FOREIGN KEY ("org_id","vendor_id") REFERENCES "public"."vendors"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_credits" ADD CONSTRAINT "vendor_credits_entry_same_org" FOREIGN KEY ("org_id","entry_id") REFERENCES "public"."journal_entries"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_credits" ADD CONSTRAINT "vendor_credits_bill_same_org" FOREIGN KEY ("org_id","applied_bill_id") REFERENCES "public"."bills"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "vendor_credits_applied_bill" ON "vendor_credits" USING btree ("org_id","applied_bill_id");