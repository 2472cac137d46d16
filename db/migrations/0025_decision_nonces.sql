CREATE TABLE "decision_nonces" (
	"nonce" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"subject_id" text NOT NULL,
	"user_id" text NOT NULL,
	"consumed_by" text NOT NULL,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "decision_nonces_expires" ON "decision_nonces" USING btree ("expires_at");