CREATE TABLE "bill_settlements" (
	"id" text NOT NULL,
	"org_id" text NOT NULL,
	"bill_id" text NOT NULL,
	"bank_line_id" text NOT NULL,
	"entry_id" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"submission_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bill_settlements_org_pk" PRIMARY KEY("org_id","id"),
	CONSTRAINT "bill_settlements_one_per_bill" UNIQUE("org_id","bill_id"),
	CONSTRAINT "bill_settlements_one_per_bank_line" UNIQUE("org_id","bank_line_id"),
	CONSTRAINT "bill_settlements_amount_positive" CHECK ("bill_settlements"."amount_minor" > 0)
);
--> statement-breakpoint
CREATE TABLE "bank_line_reconciliations" (
	"org_id" text NOT NULL,
	"bank_line_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"run_id" text NOT NULL,
	"request_id" text,
	"candidates" text[] DEFAULT '{}'::text[] NOT NULL,
	"submission_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bank_line_reconciliations_pk" PRIMARY KEY("org_id","bank_line_id"),
	CONSTRAINT "bank_line_reconciliations_status_known" CHECK ("bank_line_reconciliations"."status" in ('pending','matched','settled','asked','handed_on')),
	CONSTRAINT "bank_line_reconciliations_asked_has_request" CHECK ("bank_line_reconciliations"."status" <> 'asked' or "bank_line_reconciliations"."request_id" is not null)
);
--> statement-breakpoint
ALTER TABLE "bank_lines" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "bank_lines" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "bank_lines" ADD COLUMN "counterparty_name" text;--> statement-breakpoint
ALTER TABLE "bank_lines" ADD COLUMN "counterparty_account" text;--> statement-breakpoint
ALTER TABLE "bills" ADD COLUMN "settled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bank_line_classifications" ADD COLUMN "credit_account_id" text;--> statement-breakpoint
ALTER TABLE "bill_settlements" ADD CONSTRAINT "bill_settlements_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bill_settlements" ADD CONSTRAINT "bill_settlements_submission_id_gateway_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."gateway_submissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bill_settlements" ADD CONSTRAINT "bill_settlements_bill_same_org" FOREIGN KEY ("org_id","bill_id") REFERENCES "public"."bills"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bill_settlements" ADD CONSTRAINT "bill_settlements_bank_line_same_org" FOREIGN KEY ("org_id","bank_line_id") REFERENCES "public"."bank_lines"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bill_settlements" ADD CONSTRAINT "bill_settlements_entry_same_org" FOREIGN KEY ("org_id","entry_id") REFERENCES "public"."journal_entries"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_line_reconciliations" ADD CONSTRAINT "bank_line_reconciliations_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_line_reconciliations" ADD CONSTRAINT "bank_line_reconciliations_line_same_org" FOREIGN KEY ("org_id","bank_line_id") REFERENCES "public"."bank_lines"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bank_line_reconciliations_request" ON "bank_line_reconciliations" USING btree ("org_id","request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_lines_account_external_id" ON "bank_lines" USING btree ("org_id","bank_account_id","external_id") WHERE "bank_lines"."external_id" is not null;