CREATE TABLE "gateway_approvals" (
	"submission_id" text NOT NULL,
	"approver_user_id" text NOT NULL,
	"decision" text NOT NULL,
	"note" text,
	"decided_at" timestamp with time zone NOT NULL,
	CONSTRAINT "gateway_approvals_submission_id_approver_user_id_pk" PRIMARY KEY("submission_id","approver_user_id"),
	CONSTRAINT "gateway_approvals_decision_known" CHECK ("gateway_approvals"."decision" in ('approve','reject'))
);
--> statement-breakpoint
CREATE TABLE "gateway_effects" (
	"submission_id" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"action" text NOT NULL,
	CONSTRAINT "gateway_effects_submission_id_entity_type_entity_id_pk" PRIMARY KEY("submission_id","entity_type","entity_id")
);
--> statement-breakpoint
CREATE TABLE "gateway_risk_settings" (
	"org_id" text PRIMARY KEY NOT NULL,
	"moderate_amount_minor" bigint DEFAULT 500000 NOT NULL,
	"high_amount_minor" bigint DEFAULT 2500000 NOT NULL,
	"high_lane_approvals" integer DEFAULT 2 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gateway_risk_settings_order" CHECK ("gateway_risk_settings"."moderate_amount_minor" > 0 and "gateway_risk_settings"."high_amount_minor" >= "gateway_risk_settings"."moderate_amount_minor"),
	CONSTRAINT "gateway_risk_settings_approvals" CHECK ("gateway_risk_settings"."high_lane_approvals" between 2 and 10)
);
--> statement-breakpoint
CREATE TABLE "gateway_submissions" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"workflow_id" text NOT NULL,
	"run_id" text NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"submitter" jsonb NOT NULL,
	"submitter_kind" text NOT NULL,
	"submitter_user_id" text,
	"agent_type" text,
	"agent_instance_id" text,
	"operator_user_id" text,
	"source_ref" text,
	"risk_score" integer NOT NULL,
	"lane" text NOT NULL,
	"rules_fired" jsonb NOT NULL,
	"required_approvals" integer NOT NULL,
	"status" text NOT NULL,
	"error" jsonb,
	"result" jsonb,
	"due_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"applied_at" timestamp with time zone,
	CONSTRAINT "gateway_submissions_org_key" UNIQUE("org_id","idempotency_key"),
	CONSTRAINT "gateway_submissions_lane_known" CHECK ("gateway_submissions"."lane" in ('low','moderate','high')),
	CONSTRAINT "gateway_submissions_status_known" CHECK ("gateway_submissions"."status" in ('awaiting_approval','approved','applied','rejected','expired','failed')),
	CONSTRAINT "gateway_submissions_submitter" CHECK (("gateway_submissions"."submitter_kind" = 'user' and "gateway_submissions"."submitter_user_id" is not null) or ("gateway_submissions"."submitter_kind" = 'agent' and "gateway_submissions"."agent_instance_id" is not null and "gateway_submissions"."operator_user_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"system_role" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_org_code" UNIQUE("org_id","code"),
	CONSTRAINT "accounts_org_id" UNIQUE("org_id","id"),
	CONSTRAINT "accounts_type_known" CHECK ("accounts"."type" in ('asset','liability','equity','revenue','expense'))
);
--> statement-breakpoint
CREATE TABLE "fiscal_periods" (
	"org_id" text NOT NULL,
	"period" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"changed_by_submission" text,
	CONSTRAINT "fiscal_periods_org_id_period_pk" PRIMARY KEY("org_id","period"),
	CONSTRAINT "fiscal_periods_status_known" CHECK ("fiscal_periods"."status" in ('open','closed')),
	CONSTRAINT "fiscal_periods_period_format" CHECK ("fiscal_periods"."period" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$')
);
--> statement-breakpoint
CREATE TABLE "journal_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"entry_date" date NOT NULL,
	"memo" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"reversal_of" text,
	"submission_id" text,
	"source_ref" text,
	"posted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "journal_entries_org_idempotency" UNIQUE("org_id","idempotency_key"),
	CONSTRAINT "journal_entries_org_id" UNIQUE("org_id","id"),
	CONSTRAINT "journal_entries_one_reversal" UNIQUE("reversal_of"),
	CONSTRAINT "journal_entries_status_known" CHECK ("journal_entries"."status" in ('draft','posted')),
	CONSTRAINT "journal_entries_posted_at" CHECK (("journal_entries"."status" = 'posted') = ("journal_entries"."posted_at" is not null)),
	CONSTRAINT "journal_entries_not_self_reversal" CHECK ("journal_entries"."reversal_of" is null or "journal_entries"."reversal_of" <> "journal_entries"."id")
);
--> statement-breakpoint
CREATE TABLE "journal_lines" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"entry_id" text NOT NULL,
	"org_id" text NOT NULL,
	"line_no" integer NOT NULL,
	"account_id" text NOT NULL,
	"currency" text NOT NULL,
	"debit" bigint DEFAULT 0 NOT NULL,
	"credit" bigint DEFAULT 0 NOT NULL,
	"memo" text,
	CONSTRAINT "journal_lines_entry_line" UNIQUE("entry_id","line_no"),
	CONSTRAINT "journal_lines_currency_iso" CHECK ("journal_lines"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "journal_lines_one_side" CHECK ("journal_lines"."debit" >= 0 and "journal_lines"."credit" >= 0 and (("journal_lines"."debit" = 0) <> ("journal_lines"."credit" = 0)))
);
--> statement-breakpoint
CREATE TABLE "bank_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"owner_type" text NOT NULL,
	"vendor_id" text,
	"holder_name" text NOT NULL,
	"iban" text,
	"account_number" text,
	"routing_code" text,
	"bic" text,
	"currency" text NOT NULL,
	"ledger_account_id" text,
	"retired_at" timestamp with time zone,
	"created_by_submission" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bank_accounts_org_id" UNIQUE("org_id","id"),
	CONSTRAINT "bank_accounts_owner" CHECK (("bank_accounts"."owner_type" = 'vendor' and "bank_accounts"."vendor_id" is not null) or ("bank_accounts"."owner_type" = 'org' and "bank_accounts"."vendor_id" is null and "bank_accounts"."ledger_account_id" is not null)),
	CONSTRAINT "bank_accounts_currency_iso" CHECK ("bank_accounts"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "bank_accounts_has_number" CHECK ("bank_accounts"."iban" is not null or "bank_accounts"."account_number" is not null)
);
--> statement-breakpoint
CREATE TABLE "bank_lines" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"bank_account_id" text NOT NULL,
	"booked_on" date NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"description" text NOT NULL,
	"matched_entry_id" text,
	"matched_by_submission" text,
	"matched_at" timestamp with time zone,
	CONSTRAINT "bank_lines_org_id" UNIQUE("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "bills" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"vendor_id" text NOT NULL,
	"bill_number" text NOT NULL,
	"bill_date" date NOT NULL,
	"due_date" date NOT NULL,
	"currency" text NOT NULL,
	"total_minor" bigint NOT NULL,
	"entry_id" text NOT NULL,
	"submission_id" text NOT NULL,
	CONSTRAINT "bills_org_vendor_number" UNIQUE("org_id","vendor_id","bill_number"),
	CONSTRAINT "bills_org_id" UNIQUE("org_id","id"),
	CONSTRAINT "bills_total_positive" CHECK ("bills"."total_minor" > 0)
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"phone" text,
	"tax_id" text,
	"payment_terms_id" text,
	"created_by_submission" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customers_org_id" UNIQUE("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "payment_terms" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"due_days" integer NOT NULL,
	"discount_days" integer,
	"discount_basis_points" integer,
	"created_by_submission" text,
	CONSTRAINT "payment_terms_org_code" UNIQUE("org_id","code"),
	CONSTRAINT "payment_terms_org_id" UNIQUE("org_id","id"),
	CONSTRAINT "payment_terms_due_days" CHECK ("payment_terms"."due_days" >= 0)
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"vendor_id" text NOT NULL,
	"bill_id" text,
	"from_bank_account_id" text NOT NULL,
	"payee_bank_account_id" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"payment_date" date NOT NULL,
	"entry_id" text NOT NULL,
	"submission_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_submission_id_unique" UNIQUE("submission_id"),
	CONSTRAINT "payments_amount_positive" CHECK ("payments"."amount_minor" > 0)
);
--> statement-breakpoint
CREATE TABLE "tax_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"rate_basis_points" integer NOT NULL,
	"effective_from" date NOT NULL,
	"effective_to" date,
	"account_id" text NOT NULL,
	"created_by_submission" text,
	CONSTRAINT "tax_codes_org_code_from" UNIQUE("org_id","code","effective_from"),
	CONSTRAINT "tax_codes_org_id" UNIQUE("org_id","id"),
	CONSTRAINT "tax_codes_kind_known" CHECK ("tax_codes"."kind" in ('vat','sales_tax')),
	CONSTRAINT "tax_codes_rate_range" CHECK ("tax_codes"."rate_basis_points" between 0 and 10000),
	CONSTRAINT "tax_codes_dates_ordered" CHECK ("tax_codes"."effective_to" is null or "tax_codes"."effective_to" > "tax_codes"."effective_from")
);
--> statement-breakpoint
CREATE TABLE "vendors" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"phone" text,
	"tax_id" text,
	"payment_terms_id" text,
	"default_expense_account_id" text,
	"status" text DEFAULT 'active' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by_submission" text,
	"updated_by_submission" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vendors_org_id" UNIQUE("org_id","id"),
	CONSTRAINT "vendors_status_known" CHECK ("vendors"."status" in ('active','inactive'))
);
--> statement-breakpoint
ALTER TABLE "gateway_approvals" ADD CONSTRAINT "gateway_approvals_submission_id_gateway_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."gateway_submissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_effects" ADD CONSTRAINT "gateway_effects_submission_id_gateway_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."gateway_submissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_risk_settings" ADD CONSTRAINT "gateway_risk_settings_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_submissions" ADD CONSTRAINT "gateway_submissions_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fiscal_periods" ADD CONSTRAINT "fiscal_periods_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fiscal_periods" ADD CONSTRAINT "fiscal_periods_changed_by_submission_gateway_submissions_id_fk" FOREIGN KEY ("changed_by_submission") REFERENCES "public"."gateway_submissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_reversal_of_journal_entries_id_fk" FOREIGN KEY ("reversal_of") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_submission_id_gateway_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."gateway_submissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_reversal_same_org" FOREIGN KEY ("org_id","reversal_of") REFERENCES "public"."journal_entries"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_lines" ADD CONSTRAINT "journal_lines_entry_same_org" FOREIGN KEY ("org_id","entry_id") REFERENCES "public"."journal_entries"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_lines" ADD CONSTRAINT "journal_lines_account_same_org" FOREIGN KEY ("org_id","account_id") REFERENCES "public"."accounts"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_created_by_submission_gateway_submissions_id_fk" FOREIGN KEY ("created_by_submission") REFERENCES "public"."gateway_submissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_vendor_same_org" FOREIGN KEY ("org_id","vendor_id") REFERENCES "public"."vendors"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_ledger_same_org" FOREIGN KEY ("org_id","ledger_account_id") REFERENCES "public"."accounts"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_lines" ADD CONSTRAINT "bank_lines_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_lines" ADD CONSTRAINT "bank_lines_matched_by_submission_gateway_submissions_id_fk" FOREIGN KEY ("matched_by_submission") REFERENCES "public"."gateway_submissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_lines" ADD CONSTRAINT "bank_lines_account_same_org" FOREIGN KEY ("org_id","bank_account_id") REFERENCES "public"."bank_accounts"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_lines" ADD CONSTRAINT "bank_lines_entry_same_org" FOREIGN KEY ("org_id","matched_entry_id") REFERENCES "public"."journal_entries"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bills" ADD CONSTRAINT "bills_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bills" ADD CONSTRAINT "bills_submission_id_gateway_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."gateway_submissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bills" ADD CONSTRAINT "bills_vendor_same_org" FOREIGN KEY ("org_id","vendor_id") REFERENCES "public"."vendors"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bills" ADD CONSTRAINT "bills_entry_same_org" FOREIGN KEY ("org_id","entry_id") REFERENCES "public"."journal_entries"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_created_by_submission_gateway_submissions_id_fk" FOREIGN KEY ("created_by_submission") REFERENCES "public"."gateway_submissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_terms_same_org" FOREIGN KEY ("org_id","payment_terms_id") REFERENCES "public"."payment_terms"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_terms" ADD CONSTRAINT "payment_terms_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_terms" ADD CONSTRAINT "payment_terms_created_by_submission_gateway_submissions_id_fk" FOREIGN KEY ("created_by_submission") REFERENCES "public"."gateway_submissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_submission_id_gateway_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."gateway_submissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_vendor_same_org" FOREIGN KEY ("org_id","vendor_id") REFERENCES "public"."vendors"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_bill_same_org" FOREIGN KEY ("org_id","bill_id") REFERENCES "public"."bills"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_from_same_org" FOREIGN KEY ("org_id","from_bank_account_id") REFERENCES "public"."bank_accounts"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_payee_same_org" FOREIGN KEY ("org_id","payee_bank_account_id") REFERENCES "public"."bank_accounts"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_entry_same_org" FOREIGN KEY ("org_id","entry_id") REFERENCES "public"."journal_entries"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_codes" ADD CONSTRAINT "tax_codes_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_codes" ADD CONSTRAINT "tax_codes_created_by_submission_gateway_submissions_id_fk" FOREIGN KEY ("created_by_submission") REFERENCES "public"."gateway_submissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_codes" ADD CONSTRAINT "tax_codes_account_same_org" FOREIGN KEY ("org_id","account_id") REFERENCES "public"."accounts"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendors" ADD CONSTRAINT "vendors_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendors" ADD CONSTRAINT "vendors_created_by_submission_gateway_submissions_id_fk" FOREIGN KEY ("created_by_submission") REFERENCES "public"."gateway_submissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendors" ADD CONSTRAINT "vendors_updated_by_submission_gateway_submissions_id_fk" FOREIGN KEY ("updated_by_submission") REFERENCES "public"."gateway_submissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendors" ADD CONSTRAINT "vendors_terms_same_org" FOREIGN KEY ("org_id","payment_terms_id") REFERENCES "public"."payment_terms"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendors" ADD CONSTRAINT "vendors_expense_account_same_org" FOREIGN KEY ("org_id","default_expense_account_id") REFERENCES "public"."accounts"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gateway_submissions_agent_instance" ON "gateway_submissions" USING btree ("agent_instance_id");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_org_system_role" ON "accounts" USING btree ("org_id","system_role") WHERE "accounts"."system_role" is not null;--> statement-breakpoint
CREATE INDEX "journal_entries_org_date" ON "journal_entries" USING btree ("org_id","entry_date");--> statement-breakpoint
CREATE INDEX "journal_lines_org_account" ON "journal_lines" USING btree ("org_id","account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_accounts_one_current_per_vendor" ON "bank_accounts" USING btree ("vendor_id") WHERE "bank_accounts"."vendor_id" is not null and "bank_accounts"."retired_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "bank_lines_entry_matched_once" ON "bank_lines" USING btree ("matched_entry_id") WHERE "bank_lines"."matched_entry_id" is not null;--> statement-breakpoint
CREATE INDEX "bank_lines_org_account" ON "bank_lines" USING btree ("org_id","bank_account_id");