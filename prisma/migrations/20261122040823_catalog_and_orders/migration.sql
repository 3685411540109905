-- CreateEnum
CREATE TYPE "product_kind" AS ENUM ('physical', 'digital');

-- CreateEnum
CREATE TYPE "product_status" AS ENUM ('draft', 'active', 'archived');

-- CreateEnum
CREATE TYPE "catalog_status" AS ENUM ('pending', 'approved', 'rejected');

-- CreateEnum
CREATE TYPE "order_status" AS ENUM ('pending', 'processing', 'shipped', 'delivered', 'cancelled');

-- CreateEnum
CREATE TYPE "billing_status" AS ENUM ('not_applicable', 'reserved', 'blocked_balance', 'charged', 'released');

-- AlterTable
ALTER TABLE "brands" ADD COLUMN     "margin_bps" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "sub_brands" ADD COLUMN     "coins_per_unit" INTEGER NOT NULL DEFAULT 100,
ADD COLUMN     "margin_bps" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "platform_settings" (
    "key" VARCHAR(64) NOT NULL,
    "value" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "platform_settings_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "prepaid_accounts" (
    "brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "currency" CHAR(3) NOT NULL DEFAULT 'EUR',
    "balance" BIGINT NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "prepaid_accounts_pkey" PRIMARY KEY ("brand_id","environment")
);

-- CreateTable
CREATE TABLE "prepaid_movements" (
    "id" UUID NOT NULL,
    "brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "delta" BIGINT NOT NULL,
    "balance_after" BIGINT NOT NULL,
    "reason" VARCHAR(120) NOT NULL,
    "order_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "prepaid_movements_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "categories" (
    "id" UUID NOT NULL,
    "slug" VARCHAR(64) NOT NULL,
    "names" JSONB NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "categories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "products" (
    "id" UUID NOT NULL,
    "category_id" UUID,
    "kind" "product_kind" NOT NULL,
    "status" "product_status" NOT NULL DEFAULT 'active',
    "translations" JSONB NOT NULL,
    "images" TEXT[],
    "search_text" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "products_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_variants" (
    "id" UUID NOT NULL,
    "product_id" UUID NOT NULL,
    "sku" VARCHAR(64) NOT NULL,
    "attributes" JSONB NOT NULL DEFAULT '{}',
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "product_variants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "variant_stock" (
    "variant_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "available" INTEGER NOT NULL,

    CONSTRAINT "variant_stock_pkey" PRIMARY KEY ("variant_id","environment")
);

-- CreateTable
CREATE TABLE "listing_markets" (
    "id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "variant_id" UUID NOT NULL,
    "product_id" UUID NOT NULL,
    "country" CHAR(2) NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "base_cost" INTEGER NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "listing_markets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "catalogs" (
    "id" UUID NOT NULL,
    "sub_brand_id" UUID,
    "name" VARCHAR(120) NOT NULL,
    "description" VARCHAR(1000),
    "status" "catalog_status" NOT NULL,
    "review_note" VARCHAR(500),
    "reviewed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "catalogs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "catalog_products" (
    "catalog_id" UUID NOT NULL,
    "product_id" UUID NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "catalog_products_pkey" PRIMARY KEY ("catalog_id","product_id")
);

-- CreateTable
CREATE TABLE "stores" (
    "id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "name" VARCHAR(120) NOT NULL,
    "slug" VARCHAR(64) NOT NULL,
    "description" VARCHAR(1000),
    "active" BOOLEAN NOT NULL DEFAULT true,
    "catalog_ids" UUID[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stores_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "orders" (
    "id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "customer_id" UUID,
    "status" "order_status" NOT NULL DEFAULT 'pending',
    "billing_status" "billing_status" NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "total_price" INTEGER NOT NULL,
    "total_coins" BIGINT NOT NULL,
    "recipient_name" VARCHAR(200),
    "shipping_address" VARCHAR(1000),
    "status_changed_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "orders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_items" (
    "id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "customer_id" UUID,
    "listing_market_id" UUID NOT NULL,
    "product_id" UUID NOT NULL,
    "variant_id" UUID NOT NULL,
    "product_name" VARCHAR(200) NOT NULL,
    "sku" VARCHAR(64) NOT NULL,
    "attributes" JSONB NOT NULL DEFAULT '{}',
    "kind" "product_kind" NOT NULL,
    "quantity" INTEGER NOT NULL,
    "unit_price" INTEGER NOT NULL,
    "unit_coins" BIGINT NOT NULL,
    "carrier" VARCHAR(120),
    "tracking_code" VARCHAR(120),
    "tracking_url" VARCHAR(500),
    "tracking_updated_at" TIMESTAMPTZ(3),
    "position" INTEGER NOT NULL,

    CONSTRAINT "order_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_events" (
    "id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "kind" VARCHAR(16) NOT NULL,
    "from_status" "order_status",
    "to_status" "order_status",
    "detail" JSONB NOT NULL DEFAULT '{}',
    "api_key_id" UUID,
    "request_id" VARCHAR(40),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_reservations" (
    "id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "order_id" UUID NOT NULL,
    "customer_id" UUID,
    "listing_market_ids" UUID[],
    "idempotency_key" VARCHAR(64),
    "api_key_id" UUID,
    "request_id" VARCHAR(40),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_reservations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "prepaid_movements_brand_id_environment_id_idx" ON "prepaid_movements"("brand_id", "environment", "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "categories_slug_key" ON "categories"("slug");

-- CreateIndex
CREATE INDEX "products_category_id_idx" ON "products"("category_id");

-- CreateIndex
CREATE UNIQUE INDEX "product_variants_sku_key" ON "product_variants"("sku");

-- CreateIndex
CREATE INDEX "product_variants_product_id_idx" ON "product_variants"("product_id");

-- CreateIndex
CREATE INDEX "listing_markets_sub_brand_id_country_currency_product_id_idx" ON "listing_markets"("sub_brand_id", "country", "currency", "product_id");

-- CreateIndex
CREATE UNIQUE INDEX "listing_markets_sub_brand_id_variant_id_country_currency_key" ON "listing_markets"("sub_brand_id", "variant_id", "country", "currency");

-- CreateIndex
CREATE INDEX "catalogs_sub_brand_id_idx" ON "catalogs"("sub_brand_id");

-- CreateIndex
CREATE INDEX "catalog_products_product_id_idx" ON "catalog_products"("product_id");

-- CreateIndex
CREATE UNIQUE INDEX "stores_sub_brand_id_slug_key" ON "stores"("sub_brand_id", "slug");

-- CreateIndex
CREATE INDEX "orders_sub_brand_id_environment_id_idx" ON "orders"("sub_brand_id", "environment", "id" DESC);

-- CreateIndex
CREATE INDEX "orders_sub_brand_id_environment_status_id_idx" ON "orders"("sub_brand_id", "environment", "status", "id" DESC);

-- CreateIndex
CREATE INDEX "orders_customer_id_idx" ON "orders"("customer_id");

-- CreateIndex
CREATE INDEX "orders_status_id_idx" ON "orders"("status", "id");

-- CreateIndex
CREATE INDEX "order_items_order_id_idx" ON "order_items"("order_id");

-- CreateIndex
CREATE INDEX "order_items_customer_id_idx" ON "order_items"("customer_id");

-- CreateIndex
CREATE INDEX "order_events_order_id_id_idx" ON "order_events"("order_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "order_reservations_order_id_key" ON "order_reservations"("order_id");

-- CreateIndex
CREATE INDEX "order_reservations_sub_brand_id_environment_id_idx" ON "order_reservations"("sub_brand_id", "environment", "id" DESC);

-- AddForeignKey
ALTER TABLE "prepaid_accounts" ADD CONSTRAINT "prepaid_accounts_brand_id_fkey" FOREIGN KEY ("brand_id") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "products" ADD CONSTRAINT "products_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "variant_stock" ADD CONSTRAINT "variant_stock_variant_id_fkey" FOREIGN KEY ("variant_id") REFERENCES "product_variants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "listing_markets" ADD CONSTRAINT "listing_markets_sub_brand_id_fkey" FOREIGN KEY ("sub_brand_id") REFERENCES "sub_brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "listing_markets" ADD CONSTRAINT "listing_markets_variant_id_fkey" FOREIGN KEY ("variant_id") REFERENCES "product_variants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "catalogs" ADD CONSTRAINT "catalogs_sub_brand_id_fkey" FOREIGN KEY ("sub_brand_id") REFERENCES "sub_brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "catalog_products" ADD CONSTRAINT "catalog_products_catalog_id_fkey" FOREIGN KEY ("catalog_id") REFERENCES "catalogs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "catalog_products" ADD CONSTRAINT "catalog_products_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "stores" ADD CONSTRAINT "stores_sub_brand_id_fkey" FOREIGN KEY ("sub_brand_id") REFERENCES "sub_brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_sub_brand_id_fkey" FOREIGN KEY ("sub_brand_id") REFERENCES "sub_brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_reservations" ADD CONSTRAINT "order_reservations_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;
-- Hand-written (docs/database.md): invariants the schema language cannot say.
-- Stock and prepaid money never go below zero, whatever path writes them.
ALTER TABLE "variant_stock" ADD CONSTRAINT "variant_stock_available_nonnegative" CHECK ("available" >= 0);
ALTER TABLE "prepaid_accounts" ADD CONSTRAINT "prepaid_accounts_balance_nonnegative" CHECK ("balance" >= 0);
ALTER TABLE "prepaid_movements" ADD CONSTRAINT "prepaid_movements_delta_nonzero" CHECK ("delta" <> 0);
ALTER TABLE "listing_markets" ADD CONSTRAINT "listing_markets_base_cost_nonnegative" CHECK ("base_cost" >= 0);
ALTER TABLE "listing_markets" ADD CONSTRAINT "listing_markets_country_alpha2" CHECK ("country" ~ '^[A-Z]{2}$');
ALTER TABLE "listing_markets" ADD CONSTRAINT "listing_markets_currency_alpha3" CHECK ("currency" ~ '^[A-Z]{3}$');
ALTER TABLE "brands" ADD CONSTRAINT "brands_margin_range" CHECK ("margin_bps" BETWEEN 0 AND 100000);
ALTER TABLE "sub_brands" ADD CONSTRAINT "sub_brands_margin_range" CHECK ("margin_bps" BETWEEN 0 AND 100000);
ALTER TABLE "sub_brands" ADD CONSTRAINT "sub_brands_coins_per_unit_positive" CHECK ("coins_per_unit" > 0);
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_quantity_positive" CHECK ("quantity" > 0);
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_prices_nonnegative" CHECK ("unit_price" >= 0 AND "unit_coins" >= 0);
-- One spend and at most one refund per order, even if the order book were bypassed.
CREATE UNIQUE INDEX "coin_movements_order_reason" ON "coin_movements" ("reason")
  WHERE "reason" LIKE 'order:%' OR "reason" LIKE 'refund:%';
CREATE UNIQUE INDEX "prepaid_movements_order_reason" ON "prepaid_movements" ("reason")
  WHERE "reason" LIKE 'order:%' OR "reason" LIKE 'release:%';
CREATE INDEX "products_search_text_trgm" ON "products" USING gin ("search_text" gin_trgm_ops);
