-- Product search reads "active products listed for me that I do not own" (the second branch of
-- the visible set). Listings carry their product, but an establishment's own products are listed
-- for it too (9,000 of its 10,000 listings in the benchmark), so finding the others meant hashing
-- every listing of the caller against a scan of every product: 9-13 ms at 10,000 products.
-- The listing now says whether its sub-brand owns its product (`own`), and a partial index holds
-- the others only: the branch is ~1,000 index entries and as many primary-key reads (1.4 ms).
--
-- The flag cannot drift: a trigger sets it from the product on every insert (and on any write of
-- product_id, sub_brand_id or own, whatever the writer sent), and a product whose owner changes
-- carries its listings' flags. A product's owner is fixed at creation in this application, so
-- listing writes pay one primary-key read on insert only.
-- The function bodies spell their semicolons \003B: the pg driver adapter that applies migrations
-- splits a script at every semicolon, even inside a quoted body.

-- AlterTable
ALTER TABLE "listing_markets" ADD COLUMN     "own" BOOLEAN NOT NULL DEFAULT false;

UPDATE "listing_markets" l SET "own" = true FROM "products" p
  WHERE p."id" = l."product_id" AND p."owner_sub_brand_id" = l."sub_brand_id";

CREATE INDEX "listing_markets_listed_for" ON "listing_markets" ("sub_brand_id", "country", "currency", "product_id")
  WHERE "active" AND NOT "own";

CREATE FUNCTION listing_markets_set_own() RETURNS trigger LANGUAGE plpgsql AS
  U&'BEGIN NEW.own := coalesce((SELECT p.owner_sub_brand_id = NEW.sub_brand_id FROM products p WHERE p.id = NEW.product_id), false)\003B RETURN NEW\003B END';

CREATE TRIGGER listing_markets_set_own
  BEFORE INSERT OR UPDATE OF product_id, sub_brand_id, own ON listing_markets
  FOR EACH ROW EXECUTE FUNCTION listing_markets_set_own();

CREATE FUNCTION products_owner_moves_listings() RETURNS trigger LANGUAGE plpgsql AS
  U&'BEGIN UPDATE listing_markets SET own = coalesce(NEW.owner_sub_brand_id = sub_brand_id, false) WHERE product_id = NEW.id\003B RETURN NULL\003B END';

CREATE TRIGGER products_owner_moves_listings
  AFTER UPDATE OF owner_sub_brand_id ON products
  FOR EACH ROW WHEN (OLD.owner_sub_brand_id IS DISTINCT FROM NEW.owner_sub_brand_id)
  EXECUTE FUNCTION products_owner_moves_listings();
