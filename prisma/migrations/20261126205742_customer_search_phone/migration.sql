-- Hand-written (issue 35, B2): the customer list's search `q` finds players by phone. The
-- generated search column gains the phone's digits (every character but 0-9 removed), so
-- "+34 600 11 22 33" is found by "600112233", and by "+34600" once the app turns a phone-like
-- search into its digits (domain/customers/customer-where.ts). PostgreSQL 15 cannot change a
-- generated column's expression in place, so the column is dropped (taking its index with it)
-- and added again: adding a stored generated column rewrites the table and computes it for every
-- existing row, which is the backfill. The one trigram index is then made again, as before.
ALTER TABLE "customers" DROP COLUMN "search_text";
ALTER TABLE "customers" ADD COLUMN "search_text" TEXT GENERATED ALWAYS AS (
  "first_name" || ' ' || "last_name" || ' | ' || coalesce("email", '') || ' | ' ||
  coalesce("external_id", '') || ' | ' || coalesce(regexp_replace("phone", '[^0-9]', '', 'g'), '')
) STORED;
CREATE INDEX "customers_search_text_trgm" ON "customers" USING gin ("search_text" gin_trgm_ops);
