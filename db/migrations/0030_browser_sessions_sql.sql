-- Browser sessions (issue 25 item 8): the runtime role (the API) records a session at sign-in,
-- reads it on every cookie request and ends it (logout); it never changes who or what a session
-- is for, nor deletes one.
REVOKE ALL ON browser_sessions FROM countersign_runtime;
--> statement-breakpoint
GRANT SELECT, INSERT ON browser_sessions TO countersign_runtime;
--> statement-breakpoint
GRANT UPDATE (ended_at, ended_reason) ON browser_sessions TO countersign_runtime;
--> statement-breakpoint
-- Revoking a key ends every session made from it, whatever path revokes it (API, CLI, SQL).
CREATE OR REPLACE FUNCTION browser_sessions_end_on_key_revoke() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE browser_sessions SET ended_at = now(), ended_reason = 'key_revoked'
   WHERE key_id = NEW.id AND ended_at IS NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER api_keys_end_sessions AFTER UPDATE OF revoked_at ON api_keys
  FOR EACH ROW WHEN (NEW.revoked_at IS NOT NULL AND OLD.revoked_at IS NULL)
  EXECUTE FUNCTION browser_sessions_end_on_key_revoke();
--> statement-breakpoint
-- Removing any role of a user in an org ends their sessions there (the gateway's
-- membership.revoke applies as the runtime role): they sign in again with what they still hold.
CREATE OR REPLACE FUNCTION browser_sessions_end_on_role_removal() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE browser_sessions SET ended_at = now(), ended_reason = 'role_removed'
   WHERE org_id = OLD.org_id AND user_id = OLD.user_id AND ended_at IS NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER memberships_end_sessions AFTER DELETE ON memberships
  FOR EACH ROW EXECUTE FUNCTION browser_sessions_end_on_role_removal();
