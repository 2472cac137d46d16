CREATE TABLE "bank_line_classifications" (
	"org_id" text NOT NULL,
	"line_key" text NOT NULL,
	"statement_ref" text NOT NULL,
	"entry_date" date NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"merchant" text NOT NULL,
	"merchant_key" text NOT NULL,
	"card_key" text NOT NULL,
	"tax_code" text,
	"status" text NOT NULL,
	"account_id" text,
	"request_id" text,
	"run_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "bank_line_classifications_org_id_line_key_pk" PRIMARY KEY("org_id","line_key"),
	CONSTRAINT "bank_line_classifications_resolved" CHECK ("bank_line_classifications"."status" = 'asked' or "bank_line_classifications"."account_id" is not null)
);
--> statement-breakpoint
ALTER TABLE "bank_line_classifications" ADD CONSTRAINT "bank_line_classifications_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bank_line_classifications_pattern" ON "bank_line_classifications" USING btree ("org_id","merchant_key","status");--> statement-breakpoint
CREATE INDEX "bank_line_classifications_request" ON "bank_line_classifications" USING btree ("org_id","request_id");