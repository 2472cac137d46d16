-- The gateway worker's own role (issue 25 item 1, the last gap).
--
-- countersign_runtime is the credential every worker, API, CLI and MCP process holds. The
-- database re-checks votes against the lane (0020) but cannot re-run the TypeScript risk rules
-- nor verify a decision proof, so a holder of that credential could still register a falsely
-- low-risk submission or write a vote row naming a real approver. Registering submissions,
-- their plan revisions, votes, effects and suspensions, and opening an apply (and so posting
-- and changing periods), now belong to countersign_gateway alone: the role only the gateway
-- worker connects as. It is a member of countersign_runtime (everything the runtime may do,
-- it may do) plus these. The API, CLI and MCP keep the runtime credential and cannot write
-- those tables at all; they start gateway workflows, whose activities do.
--
-- LOGIN and the password are set by the migrate step, as for countersign_runtime.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'countersign_gateway') THEN
    BEGIN
      CREATE ROLE countersign_gateway NOLOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL;
    END;
  END IF;
  IF NOT pg_has_role('countersign_gateway', 'countersign_runtime', 'MEMBER') THEN
    GRANT countersign_runtime TO countersign_gateway;
  END IF;
END $$;
--> statement-breakpoint
REVOKE INSERT, UPDATE ON gateway_submissions FROM countersign_runtime;
--> statement-breakpoint
GRANT INSERT, UPDATE ON gateway_submissions TO countersign_gateway;
--> statement-breakpoint
REVOKE INSERT ON gateway_plan_revisions, gateway_plan_votes, gateway_effects, gateway_suspensions
  FROM countersign_runtime;
--> statement-breakpoint
GRANT INSERT ON gateway_plan_revisions, gateway_plan_votes, gateway_effects, gateway_suspensions
  TO countersign_gateway;
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION gateway_begin_apply(text), ledger_post_entry(jsonb, jsonb),
  ledger_post_entries(jsonb, jsonb), ledger_set_period_status(text, text, text, text)
  FROM countersign_runtime;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION gateway_begin_apply(text), ledger_post_entry(jsonb, jsonb),
  ledger_post_entries(jsonb, jsonb), ledger_set_period_status(text, text, text, text)
  TO countersign_gateway;
