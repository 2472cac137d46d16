-- Session rows are kept while they can matter (who was signed in, when, how it ended) and
-- pruned after: the API calls this at each sign-in. The runtime role cannot delete sessions
-- itself (0030); this function removes only sessions that ended or expired more than `keep`
-- ago (at least a day), never a live one.
CREATE OR REPLACE FUNCTION prune_browser_sessions(keep interval) RETURNS integer
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$
  WITH gone AS (
    DELETE FROM browser_sessions
     WHERE least(coalesce(ended_at, expires_at), expires_at)
           < now() - greatest(keep, interval '1 day')
    RETURNING 1
  )
  SELECT count(*)::integer FROM gone
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION prune_browser_sessions(interval) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION prune_browser_sessions(interval) TO countersign_runtime;
