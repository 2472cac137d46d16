-- Settlements are books: written only inside a gateway apply (bill.settle), like bills and
-- payments. The runtime may not change or remove one.
CREATE TRIGGER bill_settlements_gateway_only BEFORE INSERT OR UPDATE OR DELETE ON bill_settlements
  FOR EACH ROW EXECUTE FUNCTION require_gateway_context();
--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON bill_settlements FROM countersign_runtime;
