-- Product search filters on units orderable by product ("stock at least N", status available).
-- Through product_variants that joined every variant of every tenant to its stock (two 20,000-row
-- hashes per search at 10,000 products). The stock row carries its variant's product instead, so
-- the filter is one index-only range scan on (environment, available, product_id).
--
-- The copy cannot drift: a trigger sets it from the variant on every insert (and on any write of
-- variant_id or product_id, whatever the writer sent), and a variant that moves to another product
-- carries its stock rows along. A variant's product is fixed at creation in this application, so
-- stock writes (orders, restocks) pay one primary-key read on insert only, and take no extra lock.
-- The function bodies spell their semicolons \003B: the pg driver adapter that applies migrations
-- splits a script at every semicolon, even inside a quoted body.

-- AlterTable
ALTER TABLE "variant_stock" ADD COLUMN     "product_id" UUID;

UPDATE "variant_stock" s SET "product_id" = v."product_id" FROM "product_variants" v WHERE v."id" = s."variant_id";

-- CreateIndex
CREATE INDEX "variant_stock_environment_available_product_id_idx" ON "variant_stock"("environment", "available", "product_id");

CREATE FUNCTION variant_stock_copy_product() RETURNS trigger LANGUAGE plpgsql AS
  U&'BEGIN NEW.product_id := (SELECT v.product_id FROM product_variants v WHERE v.id = NEW.variant_id)\003B RETURN NEW\003B END';

CREATE TRIGGER variant_stock_copy_product
  BEFORE INSERT OR UPDATE OF variant_id, product_id ON variant_stock
  FOR EACH ROW EXECUTE FUNCTION variant_stock_copy_product();

CREATE FUNCTION product_variant_moves_stock() RETURNS trigger LANGUAGE plpgsql AS
  U&'BEGIN UPDATE variant_stock SET product_id = NEW.product_id WHERE variant_id = NEW.id\003B RETURN NULL\003B END';

CREATE TRIGGER product_variant_moves_stock
  AFTER UPDATE OF product_id ON product_variants
  FOR EACH ROW WHEN (OLD.product_id IS DISTINCT FROM NEW.product_id)
  EXECUTE FUNCTION product_variant_moves_stock();
