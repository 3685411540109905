-- CreateEnum
CREATE TYPE "campaign_type" AS ENUM ('daily_reward_simple', 'daily_reward_progressive', 'tournament');

-- CreateEnum
CREATE TYPE "campaign_status" AS ENUM ('draft', 'in_progress', 'paused', 'cancelled', 'completed');

-- CreateEnum
CREATE TYPE "award_status" AS ENUM ('pending', 'claimed', 'expired');

-- CreateEnum
CREATE TYPE "settlement_status" AS ENUM ('pending', 'done', 'failed');

-- CreateTable
CREATE TABLE "campaigns" (
    "id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "title" VARCHAR(200) NOT NULL,
    "modal_title" VARCHAR(200),
    "description" VARCHAR(5000),
    "legal_terms" VARCHAR(20000),
    "duration" VARCHAR(20),
    "starts_at" TIMESTAMPTZ(3) NOT NULL,
    "ends_at" TIMESTAMPTZ(3) NOT NULL,
    "type" "campaign_type" NOT NULL,
    "status" "campaign_status" NOT NULL DEFAULT 'draft',
    "multiplier" INTEGER NOT NULL DEFAULT 1,
    "budget" BIGINT,
    "total_awarded" BIGINT NOT NULL DEFAULT 0,
    "terms_accepted" BOOLEAN NOT NULL,
    "prizes" JSONB NOT NULL,
    "targeting" JSONB NOT NULL DEFAULT '{}',
    "is_template" BOOLEAN NOT NULL DEFAULT false,
    "cloned_from_id" UUID,
    "deleted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "campaigns_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "campaign_activities" (
    "id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "idempotency_key" VARCHAR(255),
    "mode" VARCHAR(16) NOT NULL,
    "customer_id" UUID NOT NULL,
    "campaign_id" UUID,
    "amount" DECIMAL(20,4),
    "bet_won" BOOLEAN,
    "bets_number" INTEGER,
    "referred_by" VARCHAR(255),
    "login_time" TIMESTAMPTZ(3),
    "points" BIGINT,
    "game" VARCHAR(120),
    "source_platform" VARCHAR(60),
    "deposit" DECIMAL(20,4),
    "cashback" DECIMAL(20,4),
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "campaign_activities_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "campaign_progress" (
    "campaign_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "streak" INTEGER NOT NULL DEFAULT 0,
    "last_day" DATE,
    "points" BIGINT NOT NULL DEFAULT 0,
    "reached_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "campaign_progress_pkey" PRIMARY KEY ("campaign_id","customer_id")
);

-- CreateTable
CREATE TABLE "campaign_awards" (
    "id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "campaign_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "award_key" VARCHAR(40) NOT NULL,
    "day" INTEGER,
    "rank" INTEGER,
    "coins" BIGINT NOT NULL DEFAULT 0,
    "product_id" UUID,
    "catalog_prize" VARCHAR(200),
    "quantity" INTEGER NOT NULL DEFAULT 1,
    "status" "award_status" NOT NULL DEFAULT 'pending',
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "claimed_at" TIMESTAMPTZ(3),
    "movement_id" UUID,
    "order_id" UUID,
    "activity_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "campaign_awards_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "campaign_settlements" (
    "campaign_id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "status" "settlement_status" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "run_after" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_error" VARCHAR(2000),
    "awarded" INTEGER NOT NULL DEFAULT 0,
    "completed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "campaign_settlements_pkey" PRIMARY KEY ("campaign_id")
);

-- CreateIndex
CREATE INDEX "campaigns_sub_brand_id_environment_id_idx" ON "campaigns"("sub_brand_id", "environment", "id" DESC);

-- CreateIndex
CREATE INDEX "campaigns_status_ends_at_idx" ON "campaigns"("status", "ends_at");

-- CreateIndex
CREATE INDEX "campaign_activities_sub_brand_id_environment_customer_id_oc_idx" ON "campaign_activities"("sub_brand_id", "environment", "customer_id", "occurred_at");

-- CreateIndex
CREATE INDEX "campaign_activities_campaign_id_customer_id_idx" ON "campaign_activities"("campaign_id", "customer_id");

-- CreateIndex
CREATE UNIQUE INDEX "campaign_activities_sub_brand_id_environment_idempotency_ke_key" ON "campaign_activities"("sub_brand_id", "environment", "idempotency_key");

-- CreateIndex
CREATE INDEX "campaign_progress_campaign_id_points_reached_at_customer_id_idx" ON "campaign_progress"("campaign_id", "points" DESC, "reached_at", "customer_id");

-- CreateIndex
CREATE INDEX "campaign_awards_sub_brand_id_environment_customer_id_id_idx" ON "campaign_awards"("sub_brand_id", "environment", "customer_id", "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "campaign_awards_campaign_id_customer_id_award_key_key" ON "campaign_awards"("campaign_id", "customer_id", "award_key");

-- CreateIndex
CREATE INDEX "campaign_settlements_status_run_after_idx" ON "campaign_settlements"("status", "run_after");

-- AddForeignKey
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_sub_brand_id_fkey" FOREIGN KEY ("sub_brand_id") REFERENCES "sub_brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_activities" ADD CONSTRAINT "campaign_activities_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_progress" ADD CONSTRAINT "campaign_progress_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_progress" ADD CONSTRAINT "campaign_progress_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_awards" ADD CONSTRAINT "campaign_awards_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_awards" ADD CONSTRAINT "campaign_awards_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_settlements" ADD CONSTRAINT "campaign_settlements_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;
-- Hand-written (docs/campaigns.md). A campaign award credits coins once: its movement's reason is
-- `campaign:<award id>`, unique like `engine:` reasons, so a second credit fails in the database.
CREATE UNIQUE INDEX "coin_movements_campaign_reason_key" ON "coin_movements" ("reason")
  WHERE "reason" LIKE 'campaign:%';

-- The budget is never exceeded: the award's guarded UPDATE is the rule, this is the backstop.
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_budget_check"
  CHECK ("budget" IS NULL OR ("budget" >= 0 AND "total_awarded" <= "budget"));
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_multiplier_check" CHECK ("multiplier" >= 1);
