-- Product search's "status available" (one variant with units orderable now) read the stock rows
-- of the whole environment, once per branch of the visibility union: ~19,500 index entries hashed
-- per branch at 10,000 products, 58 ms at p99 against a goal of 50 (docs/performance.md). The
-- product now counts its variants in stock per environment, so the filter is a comparison on the
-- product's own row.
--
-- The counts cannot drift: triggers on variant_stock add or remove one when a row crosses zero
-- (inserted with units, emptied, refilled, deleted with units, moved to another product), in the
-- transaction that changes it. Counting rather than a recomputed flag keeps concurrent orders
-- right: each increment waits for the product row's lock and adds to the latest count, where two
-- orders taking the last units of two variants would each have seen the other's still in stock.
-- An order pays the triggers' WHEN test, and only the one taking a variant's last unit (or a restock
-- from zero) updates the product row.
-- The function bodies spell their semicolons \003B: the pg driver adapter that applies migrations
-- splits a script at every semicolon, even inside a quoted body.

-- AlterTable
ALTER TABLE "products" ADD COLUMN     "live_variants_in_stock" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "test_variants_in_stock" INTEGER NOT NULL DEFAULT 0;

UPDATE "products" p SET
  "live_variants_in_stock" = (SELECT count(*) FROM "variant_stock" s
                              WHERE s."product_id" = p."id" AND s."environment" = 'live' AND s."available" > 0),
  "test_variants_in_stock" = (SELECT count(*) FROM "variant_stock" s
                              WHERE s."product_id" = p."id" AND s."environment" = 'test' AND s."available" > 0);

CREATE FUNCTION variant_stock_counts_in_stock() RETURNS trigger LANGUAGE plpgsql AS
  U&'BEGIN IF TG_OP <> ''INSERT'' AND OLD.available > 0 THEN UPDATE products SET live_variants_in_stock = live_variants_in_stock - (OLD.environment = ''live'')::int, test_variants_in_stock = test_variants_in_stock - (OLD.environment = ''test'')::int WHERE id = OLD.product_id\003B END IF\003B IF TG_OP <> ''DELETE'' AND NEW.available > 0 THEN UPDATE products SET live_variants_in_stock = live_variants_in_stock + (NEW.environment = ''live'')::int, test_variants_in_stock = test_variants_in_stock + (NEW.environment = ''test'')::int WHERE id = NEW.product_id\003B END IF\003B RETURN NULL\003B END';

CREATE TRIGGER variant_stock_in_stock_insert
  AFTER INSERT ON variant_stock
  FOR EACH ROW WHEN (NEW.available > 0)
  EXECUTE FUNCTION variant_stock_counts_in_stock();

CREATE TRIGGER variant_stock_in_stock_delete
  AFTER DELETE ON variant_stock
  FOR EACH ROW WHEN (OLD.available > 0)
  EXECUTE FUNCTION variant_stock_counts_in_stock();

CREATE TRIGGER variant_stock_in_stock_update
  AFTER UPDATE OF available, product_id, environment ON variant_stock
  FOR EACH ROW WHEN ((OLD.available > 0) <> (NEW.available > 0)
                     OR OLD.product_id IS DISTINCT FROM NEW.product_id
                     OR OLD.environment <> NEW.environment)
  EXECUTE FUNCTION variant_stock_counts_in_stock();
