-- Two database roles, gateway-only writes and a hash-chained audit log.
--
-- Migrations run as the owner (the role that owns every table); the platform connects as
-- countersign_runtime, which cannot run DDL (it owns nothing, so it can neither ALTER a table
-- nor disable a trigger) and has no UPDATE/DELETE on the ledger, audit and decision tables.
-- Books, periods, the chart, grants, risk settings and master data change only inside a
-- transaction that opened a gateway context for an approved submission
-- (gateway_begin_apply), through SECURITY DEFINER functions or under guard triggers that
-- require that context. The context lives in a table the runtime role cannot touch, so it
-- cannot be faked with a session setting.

-- 1. The runtime role (cluster-wide; created once, idempotent under concurrent migrations).
--    LOGIN and the password are set by the migrate step from the configuration.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'countersign_runtime') THEN
    BEGIN
      CREATE ROLE countersign_runtime NOLOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL;
    END;
  END IF;
END $$;
--> statement-breakpoint
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO countersign_runtime;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO countersign_runtime;
--> statement-breakpoint
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO countersign_runtime;
--> statement-breakpoint
-- Tables later migrations create are usable by the runtime unless a migration says otherwise.
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO countersign_runtime;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO countersign_runtime;
--> statement-breakpoint
-- Ledger, audit and decisions: append only for the runtime, and the ledger and periods not
-- even that (ledger_post_entry / ledger_set_period_status write them).
REVOKE UPDATE, DELETE, TRUNCATE ON journal_entries, journal_lines, fiscal_periods, audit_log,
  gateway_approvals, gateway_effects, review_decisions FROM countersign_runtime;
--> statement-breakpoint
REVOKE INSERT ON journal_entries, journal_lines, fiscal_periods FROM countersign_runtime;
--> statement-breakpoint
REVOKE DELETE, TRUNCATE ON gateway_submissions FROM countersign_runtime;
--> statement-breakpoint

-- 2. The gateway context: which submissions this transaction is applying. Owner-only.
CREATE TABLE IF NOT EXISTS gateway_apply_context (
  txid bigint NOT NULL,
  submission_id text NOT NULL REFERENCES gateway_submissions(id),
  org_id text NOT NULL,
  PRIMARY KEY (txid, submission_id)
);
--> statement-breakpoint
REVOKE ALL ON gateway_apply_context FROM PUBLIC, countersign_runtime;
--> statement-breakpoint

-- Opens the context for a submission that may be applied now: awaiting approval or approved,
-- no rejection, and as many approvals by people other than its submitter or operator as its
-- lane requires. Returns false (and opens nothing) otherwise. Locks the submission row.
CREATE OR REPLACE FUNCTION gateway_begin_apply(p_submission text) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  s gateway_submissions%ROWTYPE;
  v_approvals integer;
  v_rejected boolean;
BEGIN
  SELECT * INTO s FROM gateway_submissions WHERE id = p_submission FOR UPDATE;
  IF NOT FOUND OR s.status NOT IN ('approved', 'awaiting_approval') THEN
    RETURN false;
  END IF;
  SELECT count(*) FILTER (WHERE decision = 'approve'
                            AND approver_user_id IS DISTINCT FROM s.submitter_user_id
                            AND approver_user_id IS DISTINCT FROM s.operator_user_id),
         coalesce(bool_or(decision = 'reject'), false)
    INTO v_approvals, v_rejected
    FROM gateway_approvals WHERE submission_id = p_submission;
  IF v_rejected OR v_approvals < s.required_approvals THEN
    RETURN false;
  END IF;
  INSERT INTO gateway_apply_context (txid, submission_id, org_id)
    VALUES (txid_current(), s.id, s.org_id) ON CONFLICT DO NOTHING;
  RETURN true;
END;
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION gateway_begin_apply(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION gateway_begin_apply(text) TO countersign_runtime;
--> statement-breakpoint

-- The submission this transaction applies for an org (one of them, when several; null: none).
CREATE OR REPLACE FUNCTION gateway_context_submission(p_org text, p_submission text DEFAULT NULL) RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT submission_id FROM gateway_apply_context
   WHERE txid = txid_current_if_assigned() AND org_id = p_org
     AND (p_submission IS NULL OR submission_id = p_submission)
   ORDER BY submission_id LIMIT 1
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION gateway_context_submission(text, text) FROM PUBLIC;
--> statement-breakpoint

-- Guard for tables the runtime may write only while applying a submission of the row's org
-- (TG_ARGV[0] = 'submission': the row names the submission itself, e.g. gateway_effects).
CREATE OR REPLACE FUNCTION require_gateway_context() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_row jsonb;
  v_ok boolean;
BEGIN
  v_row := CASE WHEN TG_OP = 'DELETE' THEN to_jsonb(OLD) ELSE to_jsonb(NEW) END;
  IF TG_NARGS > 0 AND TG_ARGV[0] = 'submission' THEN
    v_ok := EXISTS (SELECT 1 FROM gateway_apply_context
                     WHERE txid = txid_current_if_assigned() AND submission_id = v_row->>'submission_id');
  ELSE
    v_ok := gateway_context_submission(v_row->>'org_id') IS NOT NULL
            AND (TG_OP <> 'UPDATE' OR to_jsonb(OLD)->>'org_id' = v_row->>'org_id');
  END IF;
  IF NOT v_ok THEN
    RAISE EXCEPTION '% on % refused: it changes only through the write gateway (no submission of org % is being applied in this transaction)',
      TG_OP, TG_TABLE_NAME, coalesce(v_row->>'org_id', '?')
      USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'gateway_context_required';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['accounts', 'memberships', 'gateway_risk_settings', 'vendors', 'customers',
                           'tax_codes', 'payment_terms', 'bank_accounts', 'bills', 'payments'] LOOP
    EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', t || '_gateway_only', t);
    EXECUTE format('CREATE TRIGGER %I BEFORE INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION require_gateway_context()',
                   t || '_gateway_only', t);
  END LOOP;
END $$;
--> statement-breakpoint
-- Bank lines arrive from connector syncs (source data); matching one is a gateway write.
CREATE TRIGGER bank_lines_gateway_only BEFORE UPDATE OR DELETE ON bank_lines
  FOR EACH ROW EXECUTE FUNCTION require_gateway_context();
--> statement-breakpoint
CREATE TRIGGER gateway_effects_gateway_only BEFORE INSERT ON gateway_effects
  FOR EACH ROW EXECUTE FUNCTION require_gateway_context('submission');
--> statement-breakpoint

-- 3. Posting and period changes: the only write paths into the ledger and fiscal_periods.
CREATE OR REPLACE FUNCTION ledger_post_entry(p_entry jsonb, p_lines jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  IF gateway_context_submission(p_entry->>'org_id', p_entry->>'submission_id') IS NULL THEN
    RAISE EXCEPTION 'posting refused: submission % of org % is not being applied in this transaction',
      p_entry->>'submission_id', p_entry->>'org_id'
      USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'gateway_context_required';
  END IF;
  INSERT INTO journal_entries (id, org_id, idempotency_key, entry_date, memo, status, reversal_of, submission_id, source_ref)
  VALUES (p_entry->>'id', p_entry->>'org_id', p_entry->>'idempotency_key', (p_entry->>'entry_date')::date,
          p_entry->>'memo', 'draft', p_entry->>'reversal_of', p_entry->>'submission_id', p_entry->>'source_ref');
  INSERT INTO journal_lines (entry_id, org_id, line_no, account_id, currency, debit, credit, memo)
  SELECT p_entry->>'id', p_entry->>'org_id', (l->>'line_no')::integer, l->>'account_id', l->>'currency',
         (l->>'debit')::bigint, (l->>'credit')::bigint, l->>'memo'
    FROM jsonb_array_elements(p_lines) AS l;
  UPDATE journal_entries SET status = 'posted', posted_at = now() WHERE id = p_entry->>'id';
END;
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION ledger_post_entry(jsonb, jsonb) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION ledger_post_entry(jsonb, jsonb) TO countersign_runtime;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ledger_set_period_status(p_org text, p_period text, p_status text, p_submission text) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_changed integer;
BEGIN
  IF gateway_context_submission(p_org, p_submission) IS NULL THEN
    RAISE EXCEPTION 'period change refused: submission % of org % is not being applied in this transaction', p_submission, p_org
      USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'gateway_context_required';
  END IF;
  INSERT INTO fiscal_periods (org_id, period, status) VALUES (p_org, p_period, 'open') ON CONFLICT DO NOTHING;
  UPDATE fiscal_periods SET status = p_status, changed_at = now(), changed_by_submission = p_submission
   WHERE org_id = p_org AND period = p_period
     AND status = CASE WHEN p_status = 'closed' THEN 'open' ELSE 'closed' END;
  GET DIAGNOSTICS v_changed = ROW_COUNT;
  RETURN v_changed = 1;
END;
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION ledger_set_period_status(text, text, text, text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION ledger_set_period_status(text, text, text, text) TO countersign_runtime;
--> statement-breakpoint

-- A posted entry references an applied submission of its own org (checked at commit, when the
-- apply transaction has marked the submission applied).
CREATE OR REPLACE FUNCTION journal_entry_check_submission() RETURNS trigger AS $$
BEGIN
  IF NEW.status = 'posted' AND NOT EXISTS (
    SELECT 1 FROM gateway_submissions WHERE id = NEW.submission_id AND org_id = NEW.org_id AND status = 'applied'
  ) THEN
    RAISE EXCEPTION 'journal entry % is not posted by an applied gateway submission of org %', NEW.id, NEW.org_id
      USING ERRCODE = 'check_violation', CONSTRAINT = 'journal_entry_applied_submission';
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER journal_entries_applied_submission AFTER INSERT OR UPDATE ON journal_entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION journal_entry_check_submission();
--> statement-breakpoint

-- 4. A submission's identity and payload never change; its lane and approvals can only rise;
--    only the apply transaction of that very submission marks it applied.
CREATE OR REPLACE FUNCTION gateway_submission_guard() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- A submission is born waiting or approved; every later state is reached by an UPDATE
    -- that this trigger and the audit trigger see.
    IF NEW.status NOT IN ('awaiting_approval', 'approved') THEN
      RAISE EXCEPTION 'gateway submission % cannot be registered as %', NEW.id, NEW.status
        USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'gateway_submission_immutable';
    END IF;
    RETURN NEW;
  END IF;
  IF (NEW.id, NEW.org_id, NEW.idempotency_key, NEW.kind, NEW.payload, NEW.submitter, NEW.submitter_kind,
      NEW.submitter_user_id, NEW.agent_type, NEW.agent_instance_id, NEW.operator_user_id, NEW.source_ref, NEW.created_at)
     IS DISTINCT FROM
     (OLD.id, OLD.org_id, OLD.idempotency_key, OLD.kind, OLD.payload, OLD.submitter, OLD.submitter_kind,
      OLD.submitter_user_id, OLD.agent_type, OLD.agent_instance_id, OLD.operator_user_id, OLD.source_ref, OLD.created_at) THEN
    RAISE EXCEPTION 'gateway submission %: what was submitted, and by whom, cannot change', OLD.id
      USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'gateway_submission_immutable';
  END IF;
  IF NEW.required_approvals < OLD.required_approvals
     OR array_position(ARRAY['low','moderate','high'], NEW.lane) < array_position(ARRAY['low','moderate','high'], OLD.lane) THEN
    RAISE EXCEPTION 'gateway submission %: its lane and required approvals can only rise', OLD.id
      USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'gateway_submission_immutable';
  END IF;
  IF NEW.status = 'applied' AND OLD.status <> 'applied'
     AND gateway_context_submission(NEW.org_id, NEW.id) IS NULL THEN
    RAISE EXCEPTION 'gateway submission % can be marked applied only by its own apply', OLD.id
      USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'gateway_context_required';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER gateway_submissions_guard BEFORE INSERT OR UPDATE ON gateway_submissions
  FOR EACH ROW EXECUTE FUNCTION gateway_submission_guard();
--> statement-breakpoint

-- 5. The audit chain. Each org's rows are numbered and chained under a per-org advisory lock
--    held to commit, so concurrent writers queue instead of forking the chain. The encoding is
--    length-prefixed fields (octets), so no field can bleed into the next; the verifier
--    (db/repositories/audit.ts) recomputes it outside the database.
CREATE OR REPLACE FUNCTION audit_canonical_time(t timestamptz) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION audit_row_hash(
  p_org text, p_seq bigint, p_subject_type text, p_subject_id text, p_event text, p_key text,
  p_actor text, p_payload jsonb, p_created_at timestamptz, p_prev_hash text
) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(sha256(convert_to(
    'countersign-audit-v1' ||
    (SELECT string_agg(octet_length(f)::text || ':' || f, '' ORDER BY ord)
       FROM unnest(ARRAY[p_org, p_seq::text, p_subject_type, p_subject_id, p_event, p_key, p_actor,
                         p_payload::text, audit_canonical_time(p_created_at), p_prev_hash])
            WITH ORDINALITY AS x(f, ord)),
    'UTF8')), 'hex')
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION audit_log_chain() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_prev text;
  v_seq bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('countersign.audit_log:' || NEW.org_id, 0));
  SELECT row_hash, org_seq INTO v_prev, v_seq FROM audit_log
   WHERE org_id = NEW.org_id ORDER BY org_seq DESC LIMIT 1;
  NEW.created_at := now();
  NEW.org_seq := coalesce(v_seq, 0) + 1;
  NEW.prev_hash := coalesce(v_prev, repeat('0', 64));
  NEW.row_hash := audit_row_hash(NEW.org_id, NEW.org_seq, NEW.subject_type, NEW.subject_id, NEW.event,
                                 NEW.idempotency_key, NEW.actor, NEW.payload, NEW.created_at, NEW.prev_hash);
  RETURN NEW;
END;
$$;
--> statement-breakpoint
-- Rows written before the chain existed are chained in id order, per org.
DO $$
DECLARE
  r record;
  v_org text := NULL;
  v_prev text;
  v_seq bigint;
BEGIN
  ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update;
  FOR r IN SELECT * FROM audit_log WHERE row_hash IS NULL ORDER BY org_id, id LOOP
    IF v_org IS DISTINCT FROM r.org_id THEN
      v_org := r.org_id;
      v_prev := repeat('0', 64);
      v_seq := 0;
    END IF;
    v_seq := v_seq + 1;
    UPDATE audit_log SET org_seq = v_seq, prev_hash = v_prev,
           row_hash = audit_row_hash(r.org_id, v_seq, r.subject_type, r.subject_id, r.event, r.idempotency_key,
                                     r.actor, r.payload, r.created_at, v_prev)
     WHERE id = r.id RETURNING row_hash INTO v_prev;
  END LOOP;
  ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_update;
END $$;
--> statement-breakpoint
ALTER TABLE audit_log ADD CONSTRAINT audit_log_chained
  CHECK (org_seq IS NOT NULL AND org_seq > 0 AND prev_hash IS NOT NULL AND row_hash IS NOT NULL);
--> statement-breakpoint
CREATE TRIGGER audit_log_chain BEFORE INSERT ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_chain();
--> statement-breakpoint

-- 6. Every gateway state change writes its audit row in the same statement's transaction:
--    submitted (with the scoring), each vote, and each status change (applied, rejected,
--    expired, failed). The keys are the ones the activities used, so a retry writes nothing new.
CREATE OR REPLACE FUNCTION gateway_submission_audit() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_actor text;
  v_event text;
  v_payload jsonb;
BEGIN
  IF TG_OP = 'INSERT' THEN
    v_event := 'submitted';
    v_actor := CASE NEW.submitter_kind
                 WHEN 'user' THEN 'user:' || NEW.submitter_user_id
                 WHEN 'agent' THEN 'agent:' || coalesce(NEW.agent_type, '?') || ':' || NEW.agent_instance_id
                 ELSE 'system' END;
    v_payload := jsonb_build_object(
      'kind', NEW.kind, 'status', NEW.status, 'source', NEW.source_ref, 'payload', NEW.payload,
      'risk', jsonb_build_object('score', NEW.risk_score, 'lane', NEW.lane,
                                 'requiredApprovals', NEW.required_approvals, 'rules', NEW.rules_fired));
  ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
    v_event := NEW.status;
    v_actor := CASE NEW.status
                 WHEN 'rejected' THEN coalesce((SELECT 'user:' || approver_user_id FROM gateway_approvals
                                                 WHERE submission_id = NEW.id AND decision = 'reject'
                                                 ORDER BY decided_at LIMIT 1), 'workflow')
                 WHEN 'expired' THEN 'workflow'
                 ELSE 'gateway' END;
    v_payload := jsonb_build_object('from', OLD.status, 'status', NEW.status, 'error', NEW.error, 'result', NEW.result);
  ELSE
    RETURN NULL;
  END IF;
  INSERT INTO audit_log (org_id, subject_type, subject_id, event, idempotency_key, actor, payload)
  VALUES (NEW.org_id, 'gateway_submission', NEW.id, v_event, NEW.id || ':' || v_event, v_actor, v_payload)
  ON CONFLICT (idempotency_key) DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER gateway_submissions_audit AFTER INSERT OR UPDATE ON gateway_submissions
  FOR EACH ROW EXECUTE FUNCTION gateway_submission_audit();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gateway_vote_audit() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  INSERT INTO audit_log (org_id, subject_type, subject_id, event, idempotency_key, actor, payload)
  SELECT s.org_id, 'gateway_submission', NEW.submission_id, 'vote', NEW.submission_id || ':vote:' || NEW.approver_user_id,
         'user:' || NEW.approver_user_id,
         jsonb_build_object('decision', NEW.decision, 'note', NEW.note, 'decidedAt', audit_canonical_time(NEW.decided_at))
    FROM gateway_submissions s WHERE s.id = NEW.submission_id
  ON CONFLICT (idempotency_key) DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER gateway_approvals_audit AFTER INSERT ON gateway_approvals
  FOR EACH ROW EXECUTE FUNCTION gateway_vote_audit();
--> statement-breakpoint
-- Grants and risk settings: their own rows, beside the submission's "applied".
CREATE OR REPLACE FUNCTION gateway_grant_audit() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_row memberships%ROWTYPE;
  v_event text;
  v_submission text;
BEGIN
  IF TG_OP = 'DELETE' THEN v_row := OLD; v_event := 'revoked'; ELSE v_row := NEW; v_event := 'granted'; END IF;
  v_submission := gateway_context_submission(v_row.org_id);
  INSERT INTO audit_log (org_id, subject_type, subject_id, event, idempotency_key, actor, payload)
  VALUES (v_row.org_id, 'membership', v_row.user_id, v_event,
          v_submission || ':membership:' || v_row.user_id || ':' || v_row.role || ':' || v_event,
          'gateway', jsonb_build_object('userId', v_row.user_id, 'role', v_row.role, 'submissionId', v_submission))
  ON CONFLICT (idempotency_key) DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER memberships_audit AFTER INSERT OR DELETE ON memberships
  FOR EACH ROW EXECUTE FUNCTION gateway_grant_audit();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gateway_settings_audit() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_submission text;
BEGIN
  v_submission := gateway_context_submission(NEW.org_id);
  INSERT INTO audit_log (org_id, subject_type, subject_id, event, idempotency_key, actor, payload)
  VALUES (NEW.org_id, 'risk_settings', NEW.org_id, 'changed', v_submission || ':risk_settings',
          'gateway', jsonb_build_object(
            'before', CASE WHEN TG_OP = 'UPDATE' THEN jsonb_build_object(
                        'moderateAmountMinor', OLD.moderate_amount_minor::text,
                        'highAmountMinor', OLD.high_amount_minor::text,
                        'highLaneApprovals', OLD.high_lane_approvals) END,
            'after', jsonb_build_object(
                        'moderateAmountMinor', NEW.moderate_amount_minor::text,
                        'highAmountMinor', NEW.high_amount_minor::text,
                        'highLaneApprovals', NEW.high_lane_approvals),
            'submissionId', v_submission))
  ON CONFLICT (idempotency_key) DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER gateway_risk_settings_audit AFTER INSERT OR UPDATE ON gateway_risk_settings
  FOR EACH ROW EXECUTE FUNCTION gateway_settings_audit();
--> statement-breakpoint
-- A reviewer's decision on an analysis, audited with the row that stores it.
CREATE OR REPLACE FUNCTION review_decision_audit() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  INSERT INTO audit_log (org_id, subject_type, subject_id, event, idempotency_key, actor, payload)
  VALUES (NEW.org_id, 'analysis_request', NEW.request_id, 'review_decision',
          'analysis_request:' || NEW.org_id || ':' || NEW.request_id || ':review_decision',
          'user:' || NEW.reviewer_id,
          jsonb_build_object('decision', NEW.decision, 'note', NEW.note, 'corrections', NEW.corrections,
                             'decidedAt', audit_canonical_time(NEW.decided_at)))
  ON CONFLICT (idempotency_key) DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER review_decisions_audit AFTER INSERT ON review_decisions
  FOR EACH ROW EXECUTE FUNCTION review_decision_audit();
