-- Ledger invariants enforced by the database itself, so that no code path (a bug, a script,
-- a hand-typed psql session) can put the books out of balance or rewrite posted history.
--
-- Life of an entry: INSERT as 'draft', INSERT its lines, UPDATE to 'posted' -- all in one
-- transaction. From 'posted' on, nothing about the entry or its lines can change; at commit a
-- deferred constraint trigger checks that it balances per currency.

-- 1. Balance: every posted entry has at least two lines and sum(debit) = sum(credit) for each
--    currency; a reversal mirrors its original line for line (per account and currency).
CREATE OR REPLACE FUNCTION journal_entry_check_balanced() RETURNS trigger AS $$
DECLARE
  v_entry text;
  v_status text;
  v_reversal_of text;
  v_lines integer;
  r record;
BEGIN
  IF TG_TABLE_NAME = 'journal_lines' THEN
    v_entry := NEW.entry_id;
  ELSE
    v_entry := NEW.id;
  END IF;
  SELECT status, reversal_of INTO v_status, v_reversal_of FROM journal_entries WHERE id = v_entry;
  IF v_status IS DISTINCT FROM 'posted' THEN
    RETURN NULL;
  END IF;
  SELECT count(*) INTO v_lines FROM journal_lines WHERE entry_id = v_entry;
  IF v_lines < 2 THEN
    RAISE EXCEPTION 'journal entry % has % line(s); a posted entry needs at least 2', v_entry, v_lines
      USING ERRCODE = 'check_violation', CONSTRAINT = 'journal_entry_balanced';
  END IF;
  FOR r IN
    SELECT currency, sum(debit) AS debits, sum(credit) AS credits
    FROM journal_lines WHERE entry_id = v_entry
    GROUP BY currency HAVING sum(debit) <> sum(credit) ORDER BY currency LIMIT 1
  LOOP
    RAISE EXCEPTION 'journal entry % does not balance in %: debits %, credits %', v_entry, r.currency, r.debits, r.credits
      USING ERRCODE = 'check_violation', CONSTRAINT = 'journal_entry_balanced';
  END LOOP;
  IF v_reversal_of IS NOT NULL THEN
    PERFORM 1 FROM (
      SELECT account_id, currency, sum(debit - credit) AS net FROM journal_lines WHERE entry_id = v_entry GROUP BY 1, 2
    ) rev
    FULL JOIN (
      SELECT account_id, currency, sum(credit - debit) AS net FROM journal_lines WHERE entry_id = v_reversal_of GROUP BY 1, 2
    ) orig USING (account_id, currency)
    WHERE rev.net IS DISTINCT FROM orig.net;
    IF FOUND THEN
      RAISE EXCEPTION 'journal entry % does not mirror the entry % it reverses', v_entry, v_reversal_of
        USING ERRCODE = 'check_violation', CONSTRAINT = 'journal_entry_reversal_mirrors';
    END IF;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER journal_lines_balanced AFTER INSERT OR UPDATE ON "journal_lines"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION journal_entry_check_balanced();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER journal_entries_balanced AFTER INSERT OR UPDATE ON "journal_entries"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION journal_entry_check_balanced();
--> statement-breakpoint

-- 2. Immutability: a posted entry and its lines are never updated or deleted (corrections are
--    reversal entries); lines cannot be added to a posted entry.
CREATE OR REPLACE FUNCTION journal_entry_refuse_change() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    RAISE EXCEPTION '% is append-only: TRUNCATE refused', TG_TABLE_NAME USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  IF OLD.status = 'posted' THEN
    RAISE EXCEPTION 'journal entry % is posted and immutable: % refused', OLD.id, TG_OP
      USING ERRCODE = 'integrity_constraint_violation', CONSTRAINT = 'journal_entry_immutable';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER journal_entries_immutable BEFORE UPDATE OR DELETE ON "journal_entries"
  FOR EACH ROW EXECUTE FUNCTION journal_entry_refuse_change();
--> statement-breakpoint
CREATE TRIGGER journal_entries_no_truncate BEFORE TRUNCATE ON "journal_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION journal_entry_refuse_change();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION journal_line_refuse_change() RETURNS trigger AS $$
DECLARE
  v_entry text;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    RAISE EXCEPTION '% is append-only: TRUNCATE refused', TG_TABLE_NAME USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    SELECT id INTO v_entry FROM journal_entries WHERE id = OLD.entry_id AND status = 'posted';
  END IF;
  IF v_entry IS NULL AND TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT id INTO v_entry FROM journal_entries WHERE id = NEW.entry_id AND status = 'posted';
  END IF;
  IF v_entry IS NOT NULL THEN
    RAISE EXCEPTION 'journal entry % is posted: its lines are immutable (% refused)', v_entry, TG_OP
      USING ERRCODE = 'integrity_constraint_violation', CONSTRAINT = 'journal_entry_immutable';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER journal_lines_immutable BEFORE INSERT OR UPDATE OR DELETE ON "journal_lines"
  FOR EACH ROW EXECUTE FUNCTION journal_line_refuse_change();
--> statement-breakpoint
CREATE TRIGGER journal_lines_no_truncate BEFORE TRUNCATE ON "journal_lines"
  FOR EACH STATEMENT EXECUTE FUNCTION journal_line_refuse_change();
--> statement-breakpoint

-- 3. Closed periods refuse postings. The period row is created on first use and read FOR
--    SHARE, so a posting and a concurrent period.close (which updates that row) serialize:
--    either the posting commits first and the close waits, or the posting sees 'closed'.
--    A reversal must reverse a posted entry.
CREATE OR REPLACE FUNCTION journal_entry_check_period() RETURNS trigger AS $$
DECLARE
  v_period text;
  v_status text;
BEGIN
  IF NEW.status <> 'posted' OR (TG_OP = 'UPDATE' AND OLD.status = 'posted') THEN
    RETURN NEW;
  END IF;
  v_period := to_char(NEW.entry_date, 'YYYY-MM');
  INSERT INTO fiscal_periods (org_id, period, status) VALUES (NEW.org_id, v_period, 'open') ON CONFLICT DO NOTHING;
  SELECT status INTO v_status FROM fiscal_periods WHERE org_id = NEW.org_id AND period = v_period FOR SHARE;
  IF v_status = 'closed' THEN
    RAISE EXCEPTION 'period % is closed for org %: posting refused', v_period, NEW.org_id
      USING ERRCODE = 'object_not_in_prerequisite_state', CONSTRAINT = 'journal_entry_open_period';
  END IF;
  IF NEW.reversal_of IS NOT NULL AND NOT EXISTS (SELECT 1 FROM journal_entries WHERE id = NEW.reversal_of AND status = 'posted') THEN
    RAISE EXCEPTION 'journal entry % reverses %, which is not a posted entry', NEW.id, NEW.reversal_of
      USING ERRCODE = 'check_violation', CONSTRAINT = 'journal_entry_reversal_mirrors';
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER journal_entries_open_period BEFORE INSERT OR UPDATE ON "journal_entries"
  FOR EACH ROW EXECUTE FUNCTION journal_entry_check_period();
--> statement-breakpoint

-- 4. A closed period cannot be made open by deleting its row; reopening is an UPDATE that
--    only an approved period.reopen submission performs.
CREATE OR REPLACE FUNCTION fiscal_period_refuse_delete() RETURNS trigger AS $$
BEGIN
  IF OLD.status = 'closed' THEN
    RAISE EXCEPTION 'period % of org % is closed: DELETE refused (reopen it through the gateway)', OLD.period, OLD.org_id
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN OLD;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER fiscal_periods_no_delete BEFORE DELETE ON "fiscal_periods"
  FOR EACH ROW EXECUTE FUNCTION fiscal_period_refuse_delete();
--> statement-breakpoint

-- 5. Attribution cannot be rewritten: votes and effects are append-only, and an applied
--    submission's row is frozen.
CREATE OR REPLACE FUNCTION gateway_refuse_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER gateway_approvals_append_only BEFORE UPDATE OR DELETE ON "gateway_approvals"
  FOR EACH ROW EXECUTE FUNCTION gateway_refuse_change();
--> statement-breakpoint
CREATE TRIGGER gateway_effects_append_only BEFORE UPDATE OR DELETE ON "gateway_effects"
  FOR EACH ROW EXECUTE FUNCTION gateway_refuse_change();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gateway_submission_frozen_when_applied() RETURNS trigger AS $$
BEGIN
  IF OLD.status = 'applied' THEN
    RAISE EXCEPTION 'gateway submission % is applied: % refused', OLD.id, TG_OP USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER gateway_submissions_frozen BEFORE UPDATE OR DELETE ON "gateway_submissions"
  FOR EACH ROW EXECUTE FUNCTION gateway_submission_frozen_when_applied();
