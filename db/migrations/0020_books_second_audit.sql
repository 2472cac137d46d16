ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_idempotency_key_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_org_idempotency_key" ON "audit_log" USING btree ("org_id","idempotency_key");--> statement-breakpoint
-- Issue 25 (Books, second audit).
--
-- Item 2: audit idempotency keys are unique per org (above), and every audit insert goes through
-- audit_append: a retry that writes the very same row again is a no-op, but a key already held
-- by a DIFFERENT row (another subject, event, actor or payload) is an error that aborts the
-- transaction — the change being audited never commits without its row. Before, the triggers
-- inserted with ON CONFLICT DO NOTHING on a global key, so a row pre-claimed under the key a
-- trigger would use (even from another org) silently dropped the real one.
--
-- Concurrency: ON CONFLICT waits for a concurrent insert of the same (org, key) to commit or
-- roll back; the SELECT that follows is a new statement, so under READ COMMITTED it sees that
-- row when it committed.
CREATE OR REPLACE FUNCTION audit_append(
  p_org text, p_subject_type text, p_subject_id text, p_event text, p_key text, p_actor text,
  p_payload jsonb
) RETURNS boolean
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
DECLARE
  v_id bigint;
  e audit_log%ROWTYPE;
BEGIN
  INSERT INTO audit_log (org_id, subject_type, subject_id, event, idempotency_key, actor, payload)
  VALUES (p_org, p_subject_type, p_subject_id, p_event, p_key, p_actor, coalesce(p_payload, 'null'::jsonb))
  ON CONFLICT (org_id, idempotency_key) DO NOTHING
  RETURNING id INTO v_id;
  IF v_id IS NOT NULL THEN
    RETURN true;
  END IF;
  SELECT * INTO e FROM audit_log WHERE org_id = p_org AND idempotency_key = p_key;
  IF NOT FOUND THEN
    -- Only reachable if the conflicting row vanished, which the append-only trigger forbids.
    RAISE EXCEPTION 'audit row % in org % neither inserted nor found', p_key, p_org
      USING ERRCODE = 'unique_violation', CONSTRAINT = 'audit_log_org_idempotency_key';
  END IF;
  IF (e.subject_type, e.subject_id, e.event, e.actor, e.payload)
     IS DISTINCT FROM (p_subject_type, p_subject_id, p_event, p_actor, coalesce(p_payload, 'null'::jsonb)) THEN
    RAISE EXCEPTION 'audit idempotency key % in org % already holds a different row (id %, % %/% by %)',
      p_key, p_org, e.id, e.event, e.subject_type, e.subject_id, e.actor
      USING ERRCODE = 'unique_violation', CONSTRAINT = 'audit_log_org_idempotency_key';
  END IF;
  RETURN false;
END;
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION audit_append(text, text, text, text, text, text, jsonb) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION audit_append(text, text, text, text, text, text, jsonb) TO countersign_runtime;
--> statement-breakpoint
-- The audit triggers, as last defined (0006, 0009, 0013), now appending through audit_append.
CREATE OR REPLACE FUNCTION gateway_submission_audit() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_actor text;
  v_event text;
  v_payload jsonb;
  v_rev integer;
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
    SELECT max(revision) INTO v_rev FROM gateway_plan_revisions WHERE submission_id = NEW.id;
    IF v_rev IS NOT NULL AND NEW.status IN ('applied', 'rejected') THEN
      INSERT INTO gateway_approvals (submission_id, approver_user_id, decision, note, decided_at)
      SELECT submission_id, approver_user_id, decision, note, decided_at
        FROM gateway_plan_votes WHERE submission_id = NEW.id AND revision = v_rev
      ON CONFLICT DO NOTHING;
    END IF;
    v_event := NEW.status;
    v_actor := CASE NEW.status
                 WHEN 'rejected' THEN coalesce((SELECT 'user:' || approver_user_id FROM gateway_approvals
                                                 WHERE submission_id = NEW.id AND decision = 'reject'
                                                 ORDER BY decided_at LIMIT 1), 'workflow')
                 WHEN 'expired' THEN 'workflow'
                 ELSE 'gateway' END;
    v_payload := jsonb_build_object('from', OLD.status, 'status', NEW.status, 'error', NEW.error, 'result', NEW.result);
    IF v_rev IS NOT NULL THEN
      v_payload := v_payload || jsonb_build_object('revision', v_rev,
        'planHash', (SELECT plan_hash FROM gateway_plan_revisions WHERE submission_id = NEW.id AND revision = v_rev));
    END IF;
  ELSE
    RETURN NULL;
  END IF;
  PERFORM audit_append(NEW.org_id, 'gateway_submission', NEW.id, v_event, NEW.id || ':' || v_event, v_actor, v_payload);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gateway_plan_vote_audit() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_org text;
BEGIN
  SELECT s.org_id INTO v_org FROM gateway_submissions s WHERE s.id = NEW.submission_id;
  IF v_org IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM audit_append(v_org, 'gateway_submission', NEW.submission_id, 'vote',
         NEW.submission_id || ':vote:' ||
           CASE WHEN NEW.revision = 0 THEN '' ELSE NEW.revision::text || ':' END || NEW.approver_user_id,
         'user:' || NEW.approver_user_id,
         jsonb_build_object('decision', NEW.decision, 'note', NEW.note, 'decidedAt', audit_canonical_time(NEW.decided_at),
                            'revision', NEW.revision, 'planHash', NEW.plan_hash));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gateway_plan_revision_audit() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  p gateway_plan_revisions%ROWTYPE;
  v_org text;
BEGIN
  IF NEW.revision = 0 THEN
    RETURN NULL;
  END IF;
  SELECT * INTO p FROM gateway_plan_revisions
   WHERE submission_id = NEW.submission_id AND revision = NEW.revision - 1;
  SELECT s.org_id INTO v_org FROM gateway_submissions s WHERE s.id = NEW.submission_id;
  IF v_org IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM audit_append(v_org, 'gateway_submission', NEW.submission_id, 'replanned:' || NEW.revision,
         NEW.submission_id || ':replanned:' || NEW.revision, 'gateway',
         jsonb_build_object(
           'from', jsonb_build_object('revision', p.revision, 'planHash', p.plan_hash, 'lane', p.lane),
           'to', jsonb_build_object('revision', NEW.revision, 'planHash', NEW.plan_hash, 'lane', NEW.lane,
                                    'risk', NEW.risk)));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gateway_grant_audit() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_row memberships%ROWTYPE;
  v_event text;
  v_submission text;
BEGIN
  IF TG_OP = 'DELETE' THEN v_row := OLD; v_event := 'revoked'; ELSE v_row := NEW; v_event := 'granted'; END IF;
  v_submission := gateway_context_submission(v_row.org_id);
  PERFORM audit_append(v_row.org_id, 'membership', v_row.user_id, v_event,
          v_submission || ':membership:' || v_row.user_id || ':' || v_row.role || ':' || v_event,
          'gateway', jsonb_build_object('userId', v_row.user_id, 'role', v_row.role, 'submissionId', v_submission));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gateway_settings_audit() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_submission text;
BEGIN
  v_submission := gateway_context_submission(NEW.org_id);
  PERFORM audit_append(NEW.org_id, 'risk_settings', NEW.org_id, 'changed', v_submission || ':risk_settings',
          'gateway', jsonb_build_object(
            'before', CASE WHEN TG_OP = 'UPDATE' THEN jsonb_build_object(
                        'moderateAmountMinor', OLD.moderate_amount_minor::text,
                        'highAmountMinor', OLD.high_amount_minor::text,
                        'highLaneApprovals', OLD.high_lane_approvals) END,
            'after', jsonb_build_object(
                        'moderateAmountMinor', NEW.moderate_amount_minor::text,
                        'highAmountMinor', NEW.high_amount_minor::text,
                        'highLaneApprovals', NEW.high_lane_approvals),
            'submissionId', v_submission));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION review_decision_audit() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  PERFORM audit_append(NEW.org_id, 'analysis_request', NEW.request_id, 'review_decision',
          'analysis_request:' || NEW.org_id || ':' || NEW.request_id || ':review_decision',
          'user:' || NEW.reviewer_id,
          jsonb_build_object('decision', NEW.decision, 'note', NEW.note, 'corrections', NEW.corrections,
                             'decidedAt', audit_canonical_time(NEW.decided_at)));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gateway_suspension_audit() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  PERFORM audit_append(NEW.org_id, 'gateway_submission', NEW.submission_id, 'suspended:' || NEW.suspension,
          NEW.submission_id || ':suspended:' || NEW.suspension, 'workflow',
          jsonb_build_object('step', NEW.step, 'error', NEW.error,
                             'at', audit_canonical_time(NEW.suspended_at)));
  PERFORM audit_append(NEW.org_id, 'gateway_submission', NEW.submission_id, 'resumed:' || NEW.suspension,
          NEW.submission_id || ':resumed:' || NEW.suspension, 'user:' || NEW.resumed_by,
          jsonb_build_object('step', NEW.step, 'note', NEW.note,
                             'at', audit_canonical_time(NEW.resumed_at)));
  RETURN NULL;
END;
$$;
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
    PERFORM audit_append(v_org, 'api_key', NEW.id, 'issued', 'api_key:' || NEW.id || ':issued',
            'user:' || NEW.issued_by,
            jsonb_build_object('principalKind', NEW.principal_kind, 'userId', NEW.user_id,
                               'agentId', NEW.agent_id, 'label', NEW.label,
                               'expiresAt', audit_canonical_time(NEW.expires_at)));
  ELSIF OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL AND v_org IS NOT NULL THEN
    PERFORM audit_append(v_org, 'api_key', NEW.id, 'revoked', 'api_key:' || NEW.id || ':revoked',
            'user:' || COALESCE(NEW.revoked_by, 'unknown'),
            jsonb_build_object('principalKind', NEW.principal_kind, 'userId', NEW.user_id,
                               'agentId', NEW.agent_id,
                               'revokedAt', audit_canonical_time(NEW.revoked_at)));
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- 0006's vote trigger was dropped in 0009; its function still inserted with a global key.
DROP FUNCTION IF EXISTS gateway_vote_audit();
--> statement-breakpoint
-- Item 1: the runtime role cannot approve its own writes.
--
-- A 'system' submission carries no approvals (there is no approver when an org is created), so
-- only the seeding path may register or apply one, and the seeding path connects as the
-- database owner (the migration role; applySystemWrites uses the owner's connection). The
-- session's login role decides, not current_user: inside SECURITY DEFINER code current_user is
-- the owner, and the runtime role cannot change its session user.
CREATE OR REPLACE FUNCTION gateway_session_is_owner() RETURNS boolean
LANGUAGE sql STABLE SET search_path = public, pg_temp AS $$
  SELECT pg_has_role(session_user, c.relowner, 'MEMBER')
    FROM pg_class c WHERE c.oid = 'public.gateway_submissions'::regclass
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gateway_submission_system_guard() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
  IF NEW.submitter_kind = 'system' AND NOT gateway_session_is_owner() THEN
    RAISE EXCEPTION 'gateway submission %: only the owner''s seeding path registers system submissions', NEW.id
      USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'gateway_system_submitter';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER gateway_submissions_system_guard BEFORE INSERT ON gateway_submissions
  FOR EACH ROW EXECUTE FUNCTION gateway_submission_system_guard();
--> statement-breakpoint
-- The gateway context opens only for a submission whose votes satisfy its lane, re-checked
-- here from the rows rather than trusted from the submission: the required count is at least
-- the lane's floor (moderate 1, high 2 — the floor gateway_submissions_lane_approvals holds
-- for people and agents) for the higher of the submission's and the current revision's lane;
-- only votes by people who hold an approving role (approver, admin, owner) in the submission's
-- org at apply time count, never the submitter's or the operator's; any rejection closes it.
-- A system submission opens it only in the owner's session (the seeding path); a system row
-- registered by anyone else before this migration can no longer be applied.
CREATE OR REPLACE FUNCTION gateway_begin_apply(p_submission text) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  s gateway_submissions%ROWTYPE;
  r gateway_plan_revisions%ROWTYPE;
  v_has_revision boolean;
  v_lane_floor integer;
  v_required integer;
  v_approvals integer;
  v_rejected boolean;
BEGIN
  SELECT * INTO s FROM gateway_submissions WHERE id = p_submission FOR UPDATE;
  IF NOT FOUND OR s.status NOT IN ('approved', 'awaiting_approval') THEN
    RETURN false;
  END IF;
  IF s.submitter_kind = 'system' THEN
    IF NOT gateway_session_is_owner() THEN
      RETURN false;
    END IF;
  ELSE
    SELECT * INTO r FROM gateway_plan_revisions WHERE submission_id = p_submission
     ORDER BY revision DESC LIMIT 1;
    v_has_revision := FOUND;
    v_lane_floor := CASE
      WHEN 'high' IN (s.lane, r.lane) THEN 2
      WHEN 'moderate' IN (s.lane, r.lane) THEN 1
      ELSE 0 END;
    v_required := greatest(s.required_approvals, coalesce(r.required_approvals, 0), v_lane_floor);
    IF v_has_revision THEN
      SELECT count(*) FILTER (WHERE v.decision = 'approve'
                                AND v.approver_user_id IS DISTINCT FROM s.submitter_user_id
                                AND v.approver_user_id IS DISTINCT FROM s.operator_user_id
                                AND EXISTS (SELECT 1 FROM memberships m
                                             WHERE m.org_id = s.org_id AND m.user_id = v.approver_user_id
                                               AND m.role IN ('approver', 'admin', 'owner'))),
             coalesce(bool_or(v.decision = 'reject'), false)
        INTO v_approvals, v_rejected
        FROM gateway_plan_votes v
       WHERE v.submission_id = p_submission AND v.revision = r.revision AND v.plan_hash = r.plan_hash;
    ELSE
      SELECT count(*) FILTER (WHERE a.decision = 'approve'
                                AND a.approver_user_id IS DISTINCT FROM s.submitter_user_id
                                AND a.approver_user_id IS DISTINCT FROM s.operator_user_id
                                AND EXISTS (SELECT 1 FROM memberships m
                                             WHERE m.org_id = s.org_id AND m.user_id = a.approver_user_id
                                               AND m.role IN ('approver', 'admin', 'owner'))),
             coalesce(bool_or(a.decision = 'reject'), false)
        INTO v_approvals, v_rejected
        FROM gateway_approvals a WHERE a.submission_id = p_submission;
    END IF;
    IF v_rejected OR v_approvals < v_required THEN
      RETURN false;
    END IF;
  END IF;
  INSERT INTO gateway_apply_context (txid, submission_id, org_id)
    VALUES (txid_current(), s.id, s.org_id) ON CONFLICT DO NOTHING;
  RETURN true;
END;
$$;
--> statement-breakpoint
-- Posting compares what is posted with the plan the approvers were shown: an entry posted for
-- a submission that has plan revisions must be one of the current revision's entries — same
-- entry id and date, and the same lines (account, currency, debit, credit) — or it is refused.
-- (The plan hash itself is computed in TypeScript and not recomputed here; the apply compares
-- it before posting.) Submissions without revisions (registered before 0009, and the owner's
-- system bootstraps) have no plan to compare.
CREATE OR REPLACE FUNCTION gateway_plan_allows_entry(p_entry jsonb, p_lines jsonb) RETURNS boolean
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_plan jsonb;
BEGIN
  SELECT r.plan INTO v_plan FROM gateway_plan_revisions r
   WHERE r.submission_id = p_entry->>'submission_id' ORDER BY r.revision DESC LIMIT 1;
  IF NOT FOUND THEN
    RETURN true;
  END IF;
  RETURN EXISTS (
    SELECT 1 FROM jsonb_array_elements(coalesce(v_plan->'entries', '[]'::jsonb)) AS pe
     WHERE pe->>'entryId' = p_entry->>'id'
       AND (pe->>'entryDate')::date = (p_entry->>'entry_date')::date
       AND (SELECT coalesce(jsonb_agg(jsonb_build_array(l->>'accountId', l->>'currency',
                                                        (l->>'debit')::numeric, (l->>'credit')::numeric)
                                      ORDER BY l->>'accountId', l->>'currency', (l->>'debit')::numeric,
                                               (l->>'credit')::numeric), '[]'::jsonb)
              FROM jsonb_array_elements(pe->'lines') AS l)
         = (SELECT coalesce(jsonb_agg(jsonb_build_array(l->>'account_id', l->>'currency',
                                                        (l->>'debit')::numeric, (l->>'credit')::numeric)
                                      ORDER BY l->>'account_id', l->>'currency', (l->>'debit')::numeric,
                                               (l->>'credit')::numeric), '[]'::jsonb)
              FROM jsonb_array_elements(p_lines) AS l));
END;
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION gateway_plan_allows_entry(jsonb, jsonb) FROM PUBLIC;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ledger_post_entry(p_entry jsonb, p_lines jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  IF gateway_context_submission(p_entry->>'org_id', p_entry->>'submission_id') IS NULL THEN
    RAISE EXCEPTION 'posting refused: submission % of org % is not being applied in this transaction',
      p_entry->>'submission_id', p_entry->>'org_id'
      USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'gateway_context_required';
  END IF;
  IF NOT gateway_plan_allows_entry(p_entry, p_lines) THEN
    RAISE EXCEPTION 'posting refused: entry % is not in the approved plan of submission %',
      p_entry->>'id', p_entry->>'submission_id'
      USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'gateway_plan_entry';
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
CREATE OR REPLACE FUNCTION ledger_post_entries(p_entries jsonb, p_lines jsonb) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_bad jsonb;
  v_posted integer;
BEGIN
  SELECT e INTO v_bad FROM jsonb_array_elements(p_entries) AS e
   WHERE gateway_context_submission(e->>'org_id', e->>'submission_id') IS NULL LIMIT 1;
  IF v_bad IS NOT NULL THEN
    RAISE EXCEPTION 'posting refused: submission % of org % is not being applied in this transaction',
      v_bad->>'submission_id', v_bad->>'org_id'
      USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'gateway_context_required';
  END IF;
  IF EXISTS (SELECT 1 FROM jsonb_array_elements(p_lines) AS l
              WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(p_entries) AS e
                                 WHERE e->>'id' = l->>'entry_id' AND e->>'org_id' = l->>'org_id')) THEN
    RAISE EXCEPTION 'posting refused: a line names an entry outside this call'
      USING ERRCODE = 'check_violation', CONSTRAINT = 'journal_entry_balanced';
  END IF;
  SELECT e INTO v_bad FROM jsonb_array_elements(p_entries) AS e
   WHERE NOT gateway_plan_allows_entry(e, coalesce(
           (SELECT jsonb_agg(l) FROM jsonb_array_elements(p_lines) AS l WHERE l->>'entry_id' = e->>'id'),
           '[]'::jsonb))
   LIMIT 1;
  IF v_bad IS NOT NULL THEN
    RAISE EXCEPTION 'posting refused: entry % is not in the approved plan of submission %',
      v_bad->>'id', v_bad->>'submission_id'
      USING ERRCODE = 'insufficient_privilege', CONSTRAINT = 'gateway_plan_entry';
  END IF;
  INSERT INTO journal_entries (id, org_id, idempotency_key, entry_date, memo, status, reversal_of, submission_id, source_ref)
  SELECT e->>'id', e->>'org_id', e->>'idempotency_key', (e->>'entry_date')::date, e->>'memo', 'draft', NULL,
         e->>'submission_id', e->>'source_ref'
    FROM jsonb_array_elements(p_entries) AS e;
  INSERT INTO journal_lines (entry_id, org_id, line_no, account_id, currency, debit, credit, memo)
  SELECT l->>'entry_id', l->>'org_id', (l->>'line_no')::integer, l->>'account_id', l->>'currency',
         (l->>'debit')::bigint, (l->>'credit')::bigint, l->>'memo'
    FROM jsonb_array_elements(p_lines) AS l;
  UPDATE journal_entries SET status = 'posted', posted_at = now()
   WHERE status = 'draft' AND id IN (SELECT e->>'id' FROM jsonb_array_elements(p_entries) AS e);
  GET DIAGNOSTICS v_posted = ROW_COUNT;
  RETURN v_posted;
END;
$$;
