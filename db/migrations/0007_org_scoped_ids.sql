DROP INDEX "bank_accounts_one_current_per_vendor";--> statement-breakpoint
ALTER TABLE "accounts" DROP CONSTRAINT "accounts_pkey";--> statement-breakpoint
ALTER TABLE "bank_accounts" DROP CONSTRAINT "bank_accounts_pkey";--> statement-breakpoint
ALTER TABLE "bank_lines" DROP CONSTRAINT "bank_lines_pkey";--> statement-breakpoint
ALTER TABLE "customers" DROP CONSTRAINT "customers_pkey";--> statement-breakpoint
ALTER TABLE "payment_terms" DROP CONSTRAINT "payment_terms_pkey";--> statement-breakpoint
ALTER TABLE "vendors" DROP CONSTRAINT "vendors_pkey";--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_org_pk" PRIMARY KEY("org_id","id");--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_org_pk" PRIMARY KEY("org_id","id");--> statement-breakpoint
ALTER TABLE "bank_lines" ADD CONSTRAINT "bank_lines_org_pk" PRIMARY KEY("org_id","id");--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_org_pk" PRIMARY KEY("org_id","id");--> statement-breakpoint
ALTER TABLE "payment_terms" ADD CONSTRAINT "payment_terms_org_pk" PRIMARY KEY("org_id","id");--> statement-breakpoint
ALTER TABLE "vendors" ADD CONSTRAINT "vendors_org_pk" PRIMARY KEY("org_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_accounts_one_current_per_vendor" ON "bank_accounts" USING btree ("org_id","vendor_id") WHERE "bank_accounts"."vendor_id" is not null and "bank_accounts"."retired_at" is null;