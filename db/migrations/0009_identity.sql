CREATE TABLE "agent_identities" (
	"org_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"operator_user_id" text NOT NULL,
	"allowed_workflows" jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agent_identities_org_id_agent_id_pk" PRIMARY KEY("org_id","agent_id")
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"principal_kind" text NOT NULL,
	"user_id" text,
	"agent_org_id" text,
	"agent_id" text,
	"salt" text NOT NULL,
	"secret_hash" text NOT NULL,
	"label" text NOT NULL,
	"issued_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by" text,
	CONSTRAINT "api_keys_principal" CHECK (("api_keys"."principal_kind" = 'user' and "api_keys"."user_id" is not null and "api_keys"."agent_id" is null) or ("api_keys"."principal_kind" = 'agent' and "api_keys"."agent_org_id" is not null and "api_keys"."agent_id" is not null and "api_keys"."user_id" is null))
);
--> statement-breakpoint
CREATE TABLE "gateway_plan_revisions" (
	"submission_id" text NOT NULL,
	"revision" integer NOT NULL,
	"plan_hash" text NOT NULL,
	"lane" text NOT NULL,
	"required_approvals" integer NOT NULL,
	"risk" jsonb NOT NULL,
	"plan" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gateway_plan_revisions_submission_id_revision_pk" PRIMARY KEY("submission_id","revision"),
	CONSTRAINT "gateway_plan_revisions_lane_known" CHECK ("gateway_plan_revisions"."lane" in ('low','moderate','high'))
);
--> statement-breakpoint
CREATE TABLE "gateway_plan_votes" (
	"submission_id" text NOT NULL,
	"revision" integer NOT NULL,
	"plan_hash" text NOT NULL,
	"approver_user_id" text NOT NULL,
	"decision" text NOT NULL,
	"note" text,
	"decided_at" timestamp with time zone NOT NULL,
	CONSTRAINT "gateway_plan_votes_submission_id_revision_approver_user_id_pk" PRIMARY KEY("submission_id","revision","approver_user_id"),
	CONSTRAINT "gateway_plan_votes_decision_known" CHECK ("gateway_plan_votes"."decision" in ('approve','reject'))
);
--> statement-breakpoint
ALTER TABLE "agent_identities" ADD CONSTRAINT "agent_identities_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_identities" ADD CONSTRAINT "agent_identities_operator_user_id_users_id_fk" FOREIGN KEY ("operator_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_plan_revisions" ADD CONSTRAINT "gateway_plan_revisions_submission_id_gateway_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."gateway_submissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_plan_votes" ADD CONSTRAINT "gateway_plan_votes_submission_id_gateway_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."gateway_submissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_user" ON "api_keys" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "api_token_hash";--> statement-breakpoint
-- A signed plan and a cast vote are evidence: the database refuses to change or remove them
-- (also for the owner; the runtime role has neither UPDATE nor DELETE on them, below).
CREATE OR REPLACE FUNCTION gateway_plan_refuse_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER gateway_plan_revisions_no_change BEFORE UPDATE OR DELETE ON "gateway_plan_revisions"
  FOR EACH ROW EXECUTE FUNCTION gateway_plan_refuse_change();
--> statement-breakpoint
CREATE TRIGGER gateway_plan_votes_no_change BEFORE UPDATE OR DELETE ON "gateway_plan_votes"
  FOR EACH ROW EXECUTE FUNCTION gateway_plan_refuse_change();
--> statement-breakpoint
-- Least privilege for the runtime role (0006's default privileges granted it everything):
-- keys are issued and revoked (revoked_at/revoked_by only), agents registered and enabled,
-- plan revisions and votes only appended.
REVOKE ALL ON api_keys, agent_identities, gateway_plan_revisions, gateway_plan_votes FROM countersign_runtime;
--> statement-breakpoint
GRANT SELECT, INSERT ON api_keys TO countersign_runtime;
--> statement-breakpoint
GRANT UPDATE (revoked_at, revoked_by) ON api_keys TO countersign_runtime;
--> statement-breakpoint
GRANT SELECT, INSERT ON agent_identities TO countersign_runtime;
--> statement-breakpoint
GRANT UPDATE (operator_user_id, allowed_workflows, enabled, updated_at) ON agent_identities TO countersign_runtime;
--> statement-breakpoint
GRANT SELECT, INSERT ON gateway_plan_revisions, gateway_plan_votes TO countersign_runtime;
--> statement-breakpoint
-- gateway_approvals is now written by the database alone: when a submission is applied (or
-- rejected), from the votes on its current plan revision (below).
REVOKE INSERT ON gateway_approvals FROM countersign_runtime;
--> statement-breakpoint
-- The gateway context opens only with enough approvals ON THE CURRENT PLAN REVISION (votes on
-- an older revision, whose plan changed, count for nothing), and never past a rejection of it.
-- Submissions registered before plan revisions existed count their gateway_approvals.
CREATE OR REPLACE FUNCTION gateway_begin_apply(p_submission text) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  s gateway_submissions%ROWTYPE;
  r gateway_plan_revisions%ROWTYPE;
  v_required integer;
  v_approvals integer;
  v_rejected boolean;
BEGIN
  SELECT * INTO s FROM gateway_submissions WHERE id = p_submission FOR UPDATE;
  IF NOT FOUND OR s.status NOT IN ('approved', 'awaiting_approval') THEN
    RETURN false;
  END IF;
  SELECT * INTO r FROM gateway_plan_revisions WHERE submission_id = p_submission
   ORDER BY revision DESC LIMIT 1;
  IF FOUND THEN
    v_required := greatest(r.required_approvals, s.required_approvals);
    SELECT count(*) FILTER (WHERE decision = 'approve'
                              AND approver_user_id IS DISTINCT FROM s.submitter_user_id
                              AND approver_user_id IS DISTINCT FROM s.operator_user_id),
           coalesce(bool_or(decision = 'reject'), false)
      INTO v_approvals, v_rejected
      FROM gateway_plan_votes
     WHERE submission_id = p_submission AND revision = r.revision AND plan_hash = r.plan_hash;
  ELSE
    v_required := s.required_approvals;
    SELECT count(*) FILTER (WHERE decision = 'approve'
                              AND approver_user_id IS DISTINCT FROM s.submitter_user_id
                              AND approver_user_id IS DISTINCT FROM s.operator_user_id),
           coalesce(bool_or(decision = 'reject'), false)
      INTO v_approvals, v_rejected
      FROM gateway_approvals WHERE submission_id = p_submission;
  END IF;
  IF v_rejected OR v_approvals < v_required THEN
    RETURN false;
  END IF;
  INSERT INTO gateway_apply_context (txid, submission_id, org_id)
    VALUES (txid_current(), s.id, s.org_id) ON CONFLICT DO NOTHING;
  RETURN true;
END;
$$;
--> statement-breakpoint
-- Status changes: as in 0006, and the votes on the revision that decided it (applied or
-- rejected) land in gateway_approvals, the "who signed it" record, in the same transaction.
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
  INSERT INTO audit_log (org_id, subject_type, subject_id, event, idempotency_key, actor, payload)
  VALUES (NEW.org_id, 'gateway_submission', NEW.id, v_event, NEW.id || ':' || v_event, v_actor, v_payload)
  ON CONFLICT (idempotency_key) DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Votes are audited where they are cast (gateway_plan_votes); the copies made into
-- gateway_approvals at the end are not votes of their own.
DROP TRIGGER IF EXISTS gateway_approvals_audit ON gateway_approvals;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gateway_plan_vote_audit() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  INSERT INTO audit_log (org_id, subject_type, subject_id, event, idempotency_key, actor, payload)
  SELECT s.org_id, 'gateway_submission', NEW.submission_id, 'vote',
         NEW.submission_id || ':vote:' ||
           CASE WHEN NEW.revision = 0 THEN '' ELSE NEW.revision::text || ':' END || NEW.approver_user_id,
         'user:' || NEW.approver_user_id,
         jsonb_build_object('decision', NEW.decision, 'note', NEW.note, 'decidedAt', audit_canonical_time(NEW.decided_at),
                            'revision', NEW.revision, 'planHash', NEW.plan_hash)
    FROM gateway_submissions s WHERE s.id = NEW.submission_id
  ON CONFLICT (idempotency_key) DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER gateway_plan_votes_audit AFTER INSERT ON gateway_plan_votes
  FOR EACH ROW EXECUTE FUNCTION gateway_plan_vote_audit();
--> statement-breakpoint
-- A changed plan (revision 1, 2, ...) is audited in the transaction that registers it.
CREATE OR REPLACE FUNCTION gateway_plan_revision_audit() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  p gateway_plan_revisions%ROWTYPE;
BEGIN
  IF NEW.revision = 0 THEN
    RETURN NULL;
  END IF;
  SELECT * INTO p FROM gateway_plan_revisions
   WHERE submission_id = NEW.submission_id AND revision = NEW.revision - 1;
  INSERT INTO audit_log (org_id, subject_type, subject_id, event, idempotency_key, actor, payload)
  SELECT s.org_id, 'gateway_submission', NEW.submission_id, 'replanned:' || NEW.revision,
         NEW.submission_id || ':replanned:' || NEW.revision, 'gateway',
         jsonb_build_object(
           'from', jsonb_build_object('revision', p.revision, 'planHash', p.plan_hash, 'lane', p.lane),
           'to', jsonb_build_object('revision', NEW.revision, 'planHash', NEW.plan_hash, 'lane', NEW.lane,
                                    'risk', NEW.risk))
    FROM gateway_submissions s WHERE s.id = NEW.submission_id
  ON CONFLICT (idempotency_key) DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER gateway_plan_revisions_audit AFTER INSERT ON gateway_plan_revisions
  FOR EACH ROW EXECUTE FUNCTION gateway_plan_revision_audit();
--> statement-breakpoint
-- An outage that outlasted the retry budget suspends a write until an operator resumes it.
-- The workflow records each suspension once the database answers again (at the resume):
-- one append-only row, and the database writes its "suspended:N" and "resumed:N" audit rows
-- in the same transaction. The org is on the row itself: a write can be suspended before its
-- submission row exists (during the evaluation).
CREATE TABLE IF NOT EXISTS gateway_suspensions (
  submission_id text NOT NULL,
  org_id text NOT NULL REFERENCES organizations(id),
  suspension integer NOT NULL CHECK (suspension > 0),
  step text NOT NULL,
  error text NOT NULL,
  suspended_at timestamptz NOT NULL,
  resumed_at timestamptz NOT NULL,
  resumed_by text NOT NULL,
  note text,
  PRIMARY KEY (submission_id, suspension)
);
--> statement-breakpoint
REVOKE ALL ON gateway_suspensions FROM countersign_runtime;
--> statement-breakpoint
GRANT SELECT, INSERT ON gateway_suspensions TO countersign_runtime;
--> statement-breakpoint
CREATE TRIGGER gateway_suspensions_no_change BEFORE UPDATE OR DELETE ON gateway_suspensions
  FOR EACH ROW EXECUTE FUNCTION gateway_plan_refuse_change();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gateway_suspension_audit() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  INSERT INTO audit_log (org_id, subject_type, subject_id, event, idempotency_key, actor, payload)
  VALUES (NEW.org_id, 'gateway_submission', NEW.submission_id, 'suspended:' || NEW.suspension,
          NEW.submission_id || ':suspended:' || NEW.suspension, 'workflow',
          jsonb_build_object('step', NEW.step, 'error', NEW.error,
                             'at', audit_canonical_time(NEW.suspended_at)))
  ON CONFLICT (idempotency_key) DO NOTHING;
  INSERT INTO audit_log (org_id, subject_type, subject_id, event, idempotency_key, actor, payload)
  VALUES (NEW.org_id, 'gateway_submission', NEW.submission_id, 'resumed:' || NEW.suspension,
          NEW.submission_id || ':resumed:' || NEW.suspension, 'user:' || NEW.resumed_by,
          jsonb_build_object('step', NEW.step, 'note', NEW.note,
                             'at', audit_canonical_time(NEW.resumed_at)))
  ON CONFLICT (idempotency_key) DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER gateway_suspensions_audit AFTER INSERT ON gateway_suspensions
  FOR EACH ROW EXECUTE FUNCTION gateway_suspension_audit();
