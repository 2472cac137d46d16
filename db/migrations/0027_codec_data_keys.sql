CREATE TABLE "codec_data_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"scope" text NOT NULL,
	"generation" integer NOT NULL,
	"master_key_id" text NOT NULL,
	"wrapped" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "codec_data_keys_scope_generation" UNIQUE("scope","generation"),
	CONSTRAINT "codec_data_keys_scope_known" CHECK ("codec_data_keys"."scope" = 'platform' or "codec_data_keys"."scope" like 'org:_%'),
	CONSTRAINT "codec_data_keys_generation_positive" CHECK ("codec_data_keys"."generation" >= 1)
);
