-- Inline XBRL facts of HTML filings (issue 22), generated from db/schema/filing-facts.ts and
-- checked by hand. Numbered 0021: 0020 belongs to a change made alongside this one.
-- The runtime role gets its rights on both tables from 0006's default privileges.
CREATE TABLE "filing_fact_sets" (
	"org_id" text NOT NULL,
	"document_id" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"fact_elements" integer NOT NULL,
	"fact_count" integer NOT NULL,
	"refused_count" integer NOT NULL,
	"dei" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"refused" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"issues" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "filing_fact_sets_org_pk" PRIMARY KEY("org_id","document_id"),
	CONSTRAINT "filing_fact_sets_status_known" CHECK ("filing_fact_sets"."status" in ('facts','text-only')),
	CONSTRAINT "filing_fact_sets_text_only_has_reason" CHECK ("filing_fact_sets"."status" <> 'text-only' or "filing_fact_sets"."reason" is not null)
);
--> statement-breakpoint
CREATE TABLE "filing_facts" (
	"org_id" text NOT NULL,
	"document_id" text NOT NULL,
	"fact_id" text NOT NULL,
	"concept" text NOT NULL,
	"concept_ns" text NOT NULL,
	"numeric" boolean NOT NULL,
	"value" text,
	"value_truncated" boolean DEFAULT false NOT NULL,
	"context_id" text NOT NULL,
	"unit_id" text,
	"unit" text,
	"decimals" text,
	"scale" integer,
	"sign" text,
	"format" text,
	"period_type" text NOT NULL,
	"period_start" date,
	"period_end" date,
	"dimensions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"dimension_count" integer DEFAULT 0 NOT NULL,
	"displayed_text" text NOT NULL,
	"hidden" boolean DEFAULT false NOT NULL,
	"page" integer,
	"char_start" integer,
	"char_end" integer,
	"duplicate_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	CONSTRAINT "filing_facts_org_pk" PRIMARY KEY("org_id","document_id","fact_id"),
	CONSTRAINT "filing_facts_period_type_known" CHECK ("filing_facts"."period_type" in ('instant','duration','forever')),
	CONSTRAINT "filing_facts_location_whole" CHECK (("filing_facts"."page" is null and "filing_facts"."char_start" is null and "filing_facts"."char_end" is null) or ("filing_facts"."page" >= 0 and "filing_facts"."char_start" >= 0 and "filing_facts"."char_end" > "filing_facts"."char_start"))
);
--> statement-breakpoint
ALTER TABLE "filing_fact_sets" ADD CONSTRAINT "filing_fact_sets_document_same_org" FOREIGN KEY ("org_id","document_id") REFERENCES "public"."documents"("org_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filing_facts" ADD CONSTRAINT "filing_facts_set_same_org" FOREIGN KEY ("org_id","document_id") REFERENCES "public"."filing_fact_sets"("org_id","document_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "filing_facts_concept" ON "filing_facts" USING btree ("org_id","document_id","concept");