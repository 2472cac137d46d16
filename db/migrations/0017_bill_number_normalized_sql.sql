-- A vendor's invoice number is unique as people read it: case, spaces and a leading '#' do not
-- make a second invoice ("INV 001", "#inv001" and "INV001" are one). The exact-text unique
-- constraint bills_org_vendor_number stays; this index closes the variants. The gateway's
-- bill.post checks the same expression first (db/repositories/master-data.ts findBillByNumber)
-- and refuses with a DuplicateEntity; the index holds even against a concurrent insert.
CREATE UNIQUE INDEX IF NOT EXISTS "bills_org_vendor_number_norm"
  ON "bills" ("org_id", "vendor_id", upper(regexp_replace("bill_number", '^#|\s', '', 'g')));
