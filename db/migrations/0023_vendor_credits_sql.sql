-- Vendor credits are books: written only inside a gateway apply (bill.credit), like bills,
-- payments and settlements. A credit is complete when written (its application to a bill
-- included): the runtime may not change or remove one.
CREATE TRIGGER vendor_credits_gateway_only BEFORE INSERT OR UPDATE OR DELETE ON vendor_credits
  FOR EACH ROW EXECUTE FUNCTION require_gateway_context();
--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON vendor_credits FROM countersign_runtime;
--> statement-breakpoint
-- A vendor's credit-note number is unique as people read it, as bills' numbers are
-- (bills_org_vendor_number_norm, 0017): "CN 7", "#cn7" and "CN7" are one credit note. The
-- exact-text unique constraint stays; bill.credit checks the same expression first
-- (db/repositories/master-data.ts findCreditByNumber); the index holds against a concurrent insert.
CREATE UNIQUE INDEX IF NOT EXISTS "vendor_credits_org_vendor_number_norm"
  ON "vendor_credits" ("org_id", "vendor_id", upper(regexp_replace("credit_number", '^#|\s', '', 'g')));
