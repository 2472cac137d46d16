-- Identity changes join the org's hash-chained audit trail, written by the database in the
-- same transaction as the change (the runtime role cannot skip them): an API key issued or
-- revoked, an agent registered or its permissions, operator or enabled flag changed.
UPDATE "api_keys" k SET "org_id" = COALESCE(k."agent_org_id",
  (SELECT min(m."org_id") FROM "memberships" m WHERE m."user_id" = k."user_id"))
WHERE k."org_id" IS NULL;
--> statement-breakpoint
GRANT UPDATE (updated_by) ON agent_identities TO countersign_runtime;
--> statement-breakpoint
-- A revocation is final: a revoked key is never brought back (the runtime role may set
-- revoked_at/revoked_by once, nothing else).
CREATE OR REPLACE FUNCTION api_key_revoke_once() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.revoked_at IS NOT NULL THEN
    RAISE EXCEPTION 'API key % was revoked; a revocation is final', OLD.id
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER api_keys_revoke_once BEFORE UPDATE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION api_key_revoke_once();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION api_key_audit() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_org text := COALESCE(NEW.org_id, NEW.agent_org_id);
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF v_org IS NULL THEN
      RAISE EXCEPTION 'API key % names no org to audit its issuance in', NEW.id
        USING ERRCODE = 'not_null_violation';
    END IF;
    INSERT INTO audit_log (org_id, subject_type, subject_id, event, idempotency_key, actor, payload)
    VALUES (v_org, 'api_key', NEW.id, 'issued', 'api_key:' || NEW.id || ':issued',
            'user:' || NEW.issued_by,
            jsonb_build_object('principalKind', NEW.principal_kind, 'userId', NEW.user_id,
                               'agentId', NEW.agent_id, 'label', NEW.label,
                               'expiresAt', audit_canonical_time(NEW.expires_at)))
    ON CONFLICT (idempotency_key) DO NOTHING;
  ELSIF OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL AND v_org IS NOT NULL THEN
    INSERT INTO audit_log (org_id, subject_type, subject_id, event, idempotency_key, actor, payload)
    VALUES (v_org, 'api_key', NEW.id, 'revoked', 'api_key:' || NEW.id || ':revoked',
            'user:' || COALESCE(NEW.revoked_by, 'unknown'),
            jsonb_build_object('principalKind', NEW.principal_kind, 'userId', NEW.user_id,
                               'agentId', NEW.agent_id,
                               'revokedAt', audit_canonical_time(NEW.revoked_at)))
    ON CONFLICT (idempotency_key) DO NOTHING;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER api_keys_audit AFTER INSERT OR UPDATE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION api_key_audit();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION agent_identity_audit() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND OLD.operator_user_id IS NOT DISTINCT FROM NEW.operator_user_id
     AND OLD.allowed_workflows IS NOT DISTINCT FROM NEW.allowed_workflows
     AND OLD.enabled IS NOT DISTINCT FROM NEW.enabled THEN
    RETURN NULL; -- a re-registration that changes nothing
  END IF;
  INSERT INTO audit_log (org_id, subject_type, subject_id, event, idempotency_key, actor, payload)
  VALUES (NEW.org_id, 'agent_identity', NEW.agent_id,
          CASE WHEN TG_OP = 'INSERT' THEN 'registered' ELSE 'changed' END,
          'agent_identity:' || NEW.org_id || ':' || NEW.agent_id || ':' || gen_random_uuid()::text,
          'user:' || COALESCE(NEW.updated_by, 'unknown'),
          jsonb_build_object(
            'operatorUserId', NEW.operator_user_id,
            'allowedWorkflows', NEW.allowed_workflows,
            'enabled', NEW.enabled,
            'before', CASE WHEN TG_OP = 'UPDATE' THEN jsonb_build_object(
                        'operatorUserId', OLD.operator_user_id,
                        'allowedWorkflows', OLD.allowed_workflows,
                        'enabled', OLD.enabled) END));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER agent_identities_audit AFTER INSERT OR UPDATE ON agent_identities
  FOR EACH ROW EXECUTE FUNCTION agent_identity_audit();
