-- CreateEnum
CREATE TYPE "customer_status" AS ENUM ('active', 'watch', 'restricted', 'banned');

-- CreateEnum
CREATE TYPE "preferred_lang" AS ENUM ('en', 'es', 'pt', 'it', 'fr');

-- CreateEnum
CREATE TYPE "movement_source" AS ENUM ('api', 'bulk', 'engine', 'order', 'refund', 'campaign');

-- CreateTable
CREATE TABLE "customers" (
    "id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "external_id" VARCHAR(120),
    "segment_id" VARCHAR(36),
    "first_name" VARCHAR(120) NOT NULL,
    "last_name" VARCHAR(120) NOT NULL,
    "nickname" VARCHAR(120),
    "email" VARCHAR(255),
    "phone" VARCHAR(40),
    "address_line" VARCHAR(240),
    "postal_code" VARCHAR(40),
    "zone" VARCHAR(120),
    "locality" VARCHAR(120),
    "city" VARCHAR(120),
    "state" VARCHAR(120),
    "country" CHAR(2),
    "preferred_lang" "preferred_lang",
    "platform_registered_at" TIMESTAMPTZ(3),
    "status" "customer_status" NOT NULL DEFAULT 'active',
    "status_note" VARCHAR(500),
    "status_changed_at" TIMESTAMPTZ(3) NOT NULL,
    "order_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "customers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "wallets" (
    "customer_id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "balance" BIGINT NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "wallets_pkey" PRIMARY KEY ("customer_id")
);

-- CreateTable
CREATE TABLE "coin_movements" (
    "id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "delta" BIGINT NOT NULL,
    "reason" VARCHAR(500),
    "balance_after" BIGINT NOT NULL,
    "source" "movement_source" NOT NULL,
    "api_key_id" UUID,
    "request_id" VARCHAR(40),
    "bulk_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "coin_movements_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bulk_adjustments" (
    "id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "idempotency_key" VARCHAR(64) NOT NULL,
    "request_hash" CHAR(64) NOT NULL,
    "filter" JSONB NOT NULL,
    "delta" BIGINT NOT NULL,
    "reason" VARCHAR(500),
    "cohort_max_id" UUID,
    "cursor" UUID,
    "matched" INTEGER NOT NULL DEFAULT 0,
    "applied" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "skipped_ids" UUID[],
    "completed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bulk_adjustments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "customers_sub_brand_id_environment_id_idx" ON "customers"("sub_brand_id", "environment", "id" DESC);

-- CreateIndex
CREATE INDEX "customers_sub_brand_id_environment_status_id_idx" ON "customers"("sub_brand_id", "environment", "status", "id" DESC);

-- CreateIndex
CREATE INDEX "customers_sub_brand_id_environment_segment_id_id_idx" ON "customers"("sub_brand_id", "environment", "segment_id", "id" DESC);

-- CreateIndex
CREATE INDEX "customers_sub_brand_id_environment_country_id_idx" ON "customers"("sub_brand_id", "environment", "country", "id" DESC);

-- CreateIndex
CREATE INDEX "customers_sub_brand_id_environment_created_at_idx" ON "customers"("sub_brand_id", "environment", "created_at");

-- CreateIndex
CREATE INDEX "customers_sub_brand_id_environment_platform_registered_at_idx" ON "customers"("sub_brand_id", "environment", "platform_registered_at");

-- CreateIndex
CREATE INDEX "customers_sub_brand_id_environment_order_count_idx" ON "customers"("sub_brand_id", "environment", "order_count");

-- CreateIndex
CREATE UNIQUE INDEX "customers_sub_brand_id_environment_external_id_key" ON "customers"("sub_brand_id", "environment", "external_id");

-- CreateIndex
CREATE INDEX "wallets_sub_brand_id_environment_balance_idx" ON "wallets"("sub_brand_id", "environment", "balance");

-- CreateIndex
CREATE INDEX "coin_movements_customer_id_id_idx" ON "coin_movements"("customer_id", "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "coin_movements_bulk_id_customer_id_key" ON "coin_movements"("bulk_id", "customer_id");

-- CreateIndex
CREATE UNIQUE INDEX "bulk_adjustments_sub_brand_id_environment_idempotency_key_key" ON "bulk_adjustments"("sub_brand_id", "environment", "idempotency_key");

-- AddForeignKey
ALTER TABLE "customers" ADD CONSTRAINT "customers_sub_brand_id_fkey" FOREIGN KEY ("sub_brand_id") REFERENCES "sub_brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "coin_movements" ADD CONSTRAINT "coin_movements_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written (docs/database.md): invariants the schema language cannot say.
-- The ledger's guards. Balances are JSON numbers on the wire, so they stay within 2^53 - 1.
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_balance_range"
  CHECK ("balance" >= 0 AND "balance" <= 9007199254740991);
ALTER TABLE "coin_movements" ADD CONSTRAINT "coin_movements_delta_nonzero" CHECK ("delta" <> 0);
ALTER TABLE "coin_movements" ADD CONSTRAINT "coin_movements_balance_after_range"
  CHECK ("balance_after" >= 0 AND "balance_after" <= 9007199254740991);
-- Anti-replay backstop: one movement per engine execution, even if the pipeline were bypassed.
CREATE UNIQUE INDEX "coin_movements_engine_reason" ON "coin_movements" ("reason")
  WHERE "reason" LIKE 'engine:%';
ALTER TABLE "customers" ADD CONSTRAINT "customers_country_alpha2" CHECK ("country" ~ '^[A-Z]{2}$');
ALTER TABLE "customers" ADD CONSTRAINT "customers_order_count_nonnegative" CHECK ("order_count" >= 0);
ALTER TABLE "bulk_adjustments" ADD CONSTRAINT "bulk_adjustments_delta_nonzero" CHECK ("delta" <> 0);
-- Case-insensitive substring search (`q`) at a million customers: trigram indexes serve ILIKE.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "customers_first_name_trgm" ON "customers" USING gin ("first_name" gin_trgm_ops);
CREATE INDEX "customers_last_name_trgm" ON "customers" USING gin ("last_name" gin_trgm_ops);
CREATE INDEX "customers_email_trgm" ON "customers" USING gin ("email" gin_trgm_ops);
CREATE INDEX "customers_external_id_trgm" ON "customers" USING gin ("external_id" gin_trgm_ops);
