-- Org ids are restricted to ^[a-z0-9][a-z0-9_-]{0,63}$ (issue 25 item 8; the CHECK follows in
-- 0032). Workflow ids are `<kind>:<org>:<key>` and the payload codec reads the org from them, so
-- an id with `:` would put an org's histories under another org's key. An existing id outside the
-- alphabet is not renamed silently (every tenant table and every workflow id names it): the
-- migration stops here and names them, for an operator to rename them first.
DO $$
DECLARE
  v_bad text;
BEGIN
  SELECT string_agg(quote_literal(id), ', ' ORDER BY id) INTO v_bad
    FROM organizations WHERE id !~ '^[a-z0-9][a-z0-9_-]{0,63}$';
  IF v_bad IS NOT NULL THEN
    RAISE EXCEPTION 'org ids outside the allowed alphabet ^[a-z0-9][a-z0-9_-]{0,63}$: %', v_bad
      USING HINT = 'rename these organizations (and the rows and workflows that name them) before migrating';
  END IF;
END $$;
