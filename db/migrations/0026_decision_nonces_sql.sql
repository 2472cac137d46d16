-- Least privilege for the runtime role on decision_nonces (0006's default privileges granted
-- it everything): a used nonce is claimed and, once long expired, pruned; never changed.
REVOKE ALL ON decision_nonces FROM countersign_runtime;
--> statement-breakpoint
GRANT SELECT, INSERT, DELETE ON decision_nonces TO countersign_runtime;
