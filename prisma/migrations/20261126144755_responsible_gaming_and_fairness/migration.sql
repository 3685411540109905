-- CreateEnum
CREATE TYPE "jurisdiction" AS ENUM ('none', 'UKGC', 'MGA');

-- CreateEnum
CREATE TYPE "product_vertical" AS ENUM ('casino', 'sports', 'poker', 'bingo', 'lottery');

-- CreateEnum
CREATE TYPE "rg_state" AS ENUM ('none', 'cool_off', 'self_excluded', 'limit_reached');

-- CreateEnum
CREATE TYPE "rg_source" AS ENUM ('operator', 'player', 'regulator');

-- AlterTable
ALTER TABLE "campaign_game_draws" ADD COLUMN     "client_seed" VARCHAR(64),
ADD COLUMN     "nonce" INTEGER,
ADD COLUMN     "seed_id" UUID;

-- AlterTable
ALTER TABLE "bulk_adjustments" ADD COLUMN     "rg_blocked" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "campaigns" ADD COLUMN     "verticals" "product_vertical"[] DEFAULT ARRAY[]::"product_vertical"[];

-- AlterTable
ALTER TABLE "event_definitions" ADD COLUMN     "verticals" "product_vertical"[] DEFAULT ARRAY[]::"product_vertical"[];

-- AlterTable
ALTER TABLE "sub_brands" ADD COLUMN     "jurisdiction" "jurisdiction" NOT NULL DEFAULT 'none';

-- CreateTable
CREATE TABLE "rg_changes" (
    "id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "customer_id" UUID NOT NULL,
    "state" "rg_state" NOT NULL,
    "until" TIMESTAMPTZ(3),
    "source" "rg_source" NOT NULL,
    "note" VARCHAR(500),
    "reason" VARCHAR(500),
    "previous_state" "rg_state" NOT NULL,
    "previous_until" TIMESTAMPTZ(3),
    "via" VARCHAR(20) NOT NULL,
    "api_key_id" UUID,
    "staff_user_id" UUID,
    "request_id" VARCHAR(128),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rg_changes_pkey" PRIMARY KEY ("sub_brand_id","id")
);

-- CreateTable
CREATE TABLE "rg_decisions" (
    "id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "customer_id" UUID NOT NULL,
    "path" VARCHAR(32) NOT NULL,
    "state" "rg_state" NOT NULL,
    "until" TIMESTAMPTZ(3),
    "reference" VARCHAR(255),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rg_decisions_pkey" PRIMARY KEY ("sub_brand_id","id")
);

-- CreateTable
CREATE TABLE "campaign_game_seeds" (
    "id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "campaign_id" UUID NOT NULL,
    "game_name" VARCHAR(40) NOT NULL,
    "seed_cipher" VARCHAR(200) NOT NULL,
    "seed_hash" CHAR(64) NOT NULL,
    "next_nonce" INTEGER NOT NULL DEFAULT 0,
    "revealed_seed" CHAR(64),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "rotated_at" TIMESTAMPTZ(3),

    CONSTRAINT "campaign_game_seeds_pkey" PRIMARY KEY ("sub_brand_id","id")
);

-- CreateIndex
CREATE INDEX "rg_changes_sub_brand_id_customer_id_id_idx" ON "rg_changes"("sub_brand_id", "customer_id", "id" DESC);

-- CreateIndex
CREATE INDEX "rg_decisions_sub_brand_id_environment_created_at_id_idx" ON "rg_decisions"("sub_brand_id", "environment", "created_at", "id");

-- CreateIndex
CREATE INDEX "rg_decisions_sub_brand_id_customer_id_id_idx" ON "rg_decisions"("sub_brand_id", "customer_id", "id" DESC);

-- CreateIndex
CREATE INDEX "campaign_game_seeds_sub_brand_id_campaign_id_game_name_crea_idx" ON "campaign_game_seeds"("sub_brand_id", "campaign_id", "game_name", "created_at" DESC);

-- CreateIndex
CREATE INDEX "campaign_game_seeds_seed_hash_idx" ON "campaign_game_seeds"("seed_hash");
-- Hand-written: the customers' columns (the generator drops statements on a table with a
-- generated column), the states' rules, and one active seed per game.
ALTER TABLE "customers" ADD COLUMN "rg_state" "rg_state" NOT NULL DEFAULT 'none',
ADD COLUMN "rg_until" TIMESTAMPTZ(3),
ADD COLUMN "rg_source" "rg_source",
ADD COLUMN "rg_since" TIMESTAMPTZ(3);

-- cool_off and limit_reached always end; self_excluded may be indefinite; none has no end.
ALTER TABLE "customers" ADD CONSTRAINT "customers_rg_until_check" CHECK (
  (rg_state = 'none' AND rg_until IS NULL)
  OR (rg_state IN ('cool_off', 'limit_reached') AND rg_until IS NOT NULL)
  OR rg_state = 'self_excluded');
ALTER TABLE "rg_changes" ADD CONSTRAINT "rg_changes_until_check" CHECK (
  (state = 'none' AND until IS NULL)
  OR (state IN ('cool_off', 'limit_reached') AND until IS NOT NULL)
  OR state = 'self_excluded');

-- The seed players see committed to: at most one unrevealed seed per campaign game.
CREATE UNIQUE INDEX "campaign_game_seeds_active" ON "campaign_game_seeds"("sub_brand_id", "campaign_id", "game_name")
  WHERE "revealed_seed" IS NULL;
