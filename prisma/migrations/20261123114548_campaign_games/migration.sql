-- CreateTable
CREATE TABLE "campaign_game_tables" (
    "id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "campaign_id" UUID NOT NULL,
    "game_name" VARCHAR(40) NOT NULL,
    "version" INTEGER NOT NULL,
    "prizes" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "campaign_game_tables_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "campaign_game_credits" (
    "campaign_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "game_name" VARCHAR(40) NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "credits" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "campaign_game_credits_pkey" PRIMARY KEY ("campaign_id","customer_id","game_name")
);

-- CreateTable
CREATE TABLE "campaign_game_draws" (
    "id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "campaign_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "game_name" VARCHAR(40) NOT NULL,
    "table_version" INTEGER NOT NULL,
    "idempotency_key" VARCHAR(255) NOT NULL,
    "draw" INTEGER NOT NULL,
    "total_weight" INTEGER NOT NULL,
    "result_index" INTEGER NOT NULL,
    "label" VARCHAR(200) NOT NULL,
    "coins" BIGINT NOT NULL,
    "movement_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "campaign_game_draws_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "campaign_game_tables_campaign_id_game_name_version_key" ON "campaign_game_tables"("campaign_id", "game_name", "version");

-- CreateIndex
CREATE INDEX "campaign_game_draws_campaign_id_customer_id_game_name_id_idx" ON "campaign_game_draws"("campaign_id", "customer_id", "game_name", "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "campaign_game_draws_sub_brand_id_environment_idempotency_ke_key" ON "campaign_game_draws"("sub_brand_id", "environment", "idempotency_key");
-- Hand-written: credits never go below zero (a play takes one with a guarded UPDATE).
ALTER TABLE "campaign_game_credits" ADD CONSTRAINT "campaign_game_credits_nonnegative" CHECK ("credits" >= 0);
