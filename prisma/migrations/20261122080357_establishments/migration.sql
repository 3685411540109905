-- CreateEnum
CREATE TYPE "establishment_status" AS ENUM ('active', 'inactive', 'suspended');

-- AlterTable
ALTER TABLE "sub_brands" ADD COLUMN     "account_manager_id" UUID,
ADD COLUMN     "coin_name" VARCHAR(40) NOT NULL DEFAULT 'Coins',
ADD COLUMN     "description" VARCHAR(2000),
ADD COLUMN     "email" VARCHAR(255),
ADD COLUMN     "image_url" VARCHAR(2048),
ADD COLUMN     "is_integration" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "locale" VARCHAR(35) NOT NULL DEFAULT 'en',
ADD COLUMN     "location" VARCHAR(240),
ADD COLUMN     "monthly_allocated_coins" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "payment_plan_id" UUID,
ADD COLUMN     "status" "establishment_status" NOT NULL DEFAULT 'active',
ADD COLUMN     "style" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "thumbnail_url" VARCHAR(2048);

-- CreateTable
CREATE TABLE "store_session_revocations" (
    "sub_brand_id" UUID NOT NULL,
    "session_id" UUID NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "store_session_revocations_pkey" PRIMARY KEY ("sub_brand_id","session_id")
);

-- CreateIndex
CREATE INDEX "store_session_revocations_expires_at_idx" ON "store_session_revocations"("expires_at");
-- Hand-written: the establishment's coins credited this month (totalAvailableCoins) read by an
-- index-only scan of this month's credits, not a scan of the sub-brand's whole ledger.
CREATE INDEX "coin_movements_credits_by_month" ON "coin_movements" ("sub_brand_id", "environment", "created_at")
  INCLUDE ("delta", "source") WHERE "delta" > 0;

-- Hand-written: styles are an object of the 14 documented members (the API validates each).
ALTER TABLE "sub_brands" ADD CONSTRAINT "sub_brands_style_object" CHECK (jsonb_typeof("style") = 'object');
