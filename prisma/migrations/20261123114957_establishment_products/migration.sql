-- AlterTable
ALTER TABLE "catalogs" ADD COLUMN     "category" VARCHAR(120);

-- AlterTable
ALTER TABLE "listing_markets" ADD COLUMN     "coin_price_override" INTEGER,
ADD COLUMN     "sell_price_override" INTEGER;

-- AlterTable
ALTER TABLE "products" ADD COLUMN     "certificate" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "currency" CHAR(3),
ADD COLUMN     "deleted_at" TIMESTAMPTZ(3),
ADD COLUMN     "display_order" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "exclusive_days" INTEGER,
ADD COLUMN     "exclusive_sub_brand_id" UUID,
ADD COLUMN     "exclusive_until" TIMESTAMPTZ(3),
ADD COLUMN     "featured" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "featured_image_url" VARCHAR(2048),
ADD COLUMN     "height" INTEGER,
ADD COLUMN     "help_link" VARCHAR(2048),
ADD COLUMN     "legacy" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "medias" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "owner_sub_brand_id" UUID,
ADD COLUMN     "prize_category" VARCHAR(16),
ADD COLUMN     "probability" DOUBLE PRECISION,
ADD COLUMN     "provider" VARCHAR(200),
ADD COLUMN     "provider_id" VARCHAR(200),
ADD COLUMN     "retail_value" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "type" VARCHAR(64),
ADD COLUMN     "verification_date" TIMESTAMPTZ(3),
ADD COLUMN     "verified_by" VARCHAR(200),
ADD COLUMN     "weight" INTEGER,
ADD COLUMN     "year" INTEGER;

-- CreateIndex
CREATE INDEX "products_owner_sub_brand_id_idx" ON "products"("owner_sub_brand_id");

-- CreateIndex
CREATE INDEX "products_exclusive_sub_brand_id_idx" ON "products"("exclusive_sub_brand_id");

-- AddForeignKey
ALTER TABLE "products" ADD CONSTRAINT "products_owner_sub_brand_id_fkey" FOREIGN KEY ("owner_sub_brand_id") REFERENCES "sub_brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "listing_markets" ADD CONSTRAINT "listing_markets_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;