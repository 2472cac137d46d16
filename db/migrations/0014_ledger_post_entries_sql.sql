-- journal.post_batch posts its entries in one call, set-based: the same checks as
-- ledger_post_entry (every entry's submission is being applied in this transaction; the row
-- triggers check period, immutability; the deferred ones balance and the applied submission),
-- without a round trip per entry. p_entries: [{id, org_id, idempotency_key, entry_date, memo,
-- submission_id, source_ref}], p_lines: [{entry_id, org_id, line_no, account_id, currency,
-- debit, credit, memo}]. Reversals are not posted this way.
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
--> statement-breakpoint
REVOKE ALL ON FUNCTION ledger_post_entries(jsonb, jsonb) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION ledger_post_entries(jsonb, jsonb) TO countersign_runtime;
