-- Campaign tables tenant-first (docs/scaling.md): every primary key and unique index leads with
-- sub_brand_id, and every foreign key between two tenant tables carries it. Columns are unchanged,
-- so the rows stay as they are, and customers gain a unique (sub_brand_id, id) for the composite keys.

-- DropForeignKey
ALTER TABLE "campaign_activities" DROP CONSTRAINT "campaign_activities_campaign_id_fkey";

-- DropForeignKey
ALTER TABLE "campaign_awards" DROP CONSTRAINT "campaign_awards_campaign_id_fkey";

-- DropForeignKey
ALTER TABLE "campaign_awards" DROP CONSTRAINT "campaign_awards_customer_id_fkey";

-- DropForeignKey
ALTER TABLE "campaign_progress" DROP CONSTRAINT "campaign_progress_campaign_id_fkey";

-- DropForeignKey
ALTER TABLE "campaign_progress" DROP CONSTRAINT "campaign_progress_customer_id_fkey";

-- DropForeignKey
ALTER TABLE "campaign_settlements" DROP CONSTRAINT "campaign_settlements_campaign_id_fkey";

-- DropIndex
DROP INDEX "campaign_awards_campaign_id_customer_id_award_key_key";

-- DropIndex
DROP INDEX "campaign_game_tables_campaign_id_game_name_version_key";

-- AlterTable
ALTER TABLE "campaign_activities" DROP CONSTRAINT "campaign_activities_pkey",
ADD CONSTRAINT "campaign_activities_pkey" PRIMARY KEY ("sub_brand_id", "id");

-- AlterTable
ALTER TABLE "campaign_awards" DROP CONSTRAINT "campaign_awards_pkey",
ADD CONSTRAINT "campaign_awards_pkey" PRIMARY KEY ("sub_brand_id", "id");

-- AlterTable
ALTER TABLE "campaign_game_credits" DROP CONSTRAINT "campaign_game_credits_pkey",
ADD CONSTRAINT "campaign_game_credits_pkey" PRIMARY KEY ("sub_brand_id", "campaign_id", "customer_id", "game_name");

-- AlterTable
ALTER TABLE "campaign_game_draws" DROP CONSTRAINT "campaign_game_draws_pkey",
ADD CONSTRAINT "campaign_game_draws_pkey" PRIMARY KEY ("sub_brand_id", "id");

-- AlterTable
ALTER TABLE "campaign_game_tables" DROP CONSTRAINT "campaign_game_tables_pkey",
ADD CONSTRAINT "campaign_game_tables_pkey" PRIMARY KEY ("sub_brand_id", "id");

-- AlterTable
ALTER TABLE "campaign_progress" DROP CONSTRAINT "campaign_progress_pkey",
ADD CONSTRAINT "campaign_progress_pkey" PRIMARY KEY ("sub_brand_id", "campaign_id", "customer_id");

-- AlterTable
ALTER TABLE "campaign_settlements" DROP CONSTRAINT "campaign_settlements_pkey",
ADD CONSTRAINT "campaign_settlements_pkey" PRIMARY KEY ("sub_brand_id", "campaign_id");

-- AlterTable
ALTER TABLE "campaigns" DROP CONSTRAINT "campaigns_pkey",
ADD CONSTRAINT "campaigns_pkey" PRIMARY KEY ("sub_brand_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "campaign_awards_sub_brand_id_campaign_id_customer_id_award__key" ON "campaign_awards"("sub_brand_id", "campaign_id", "customer_id", "award_key");

-- CreateIndex
CREATE UNIQUE INDEX "campaign_game_tables_sub_brand_id_campaign_id_game_name_ver_key" ON "campaign_game_tables"("sub_brand_id", "campaign_id", "game_name", "version");

-- CreateIndex
CREATE UNIQUE INDEX "customers_sub_brand_id_id_key" ON "customers"("sub_brand_id", "id");

-- AddForeignKey
ALTER TABLE "campaign_activities" ADD CONSTRAINT "campaign_activities_sub_brand_id_campaign_id_fkey" FOREIGN KEY ("sub_brand_id", "campaign_id") REFERENCES "campaigns"("sub_brand_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_progress" ADD CONSTRAINT "campaign_progress_sub_brand_id_campaign_id_fkey" FOREIGN KEY ("sub_brand_id", "campaign_id") REFERENCES "campaigns"("sub_brand_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_progress" ADD CONSTRAINT "campaign_progress_sub_brand_id_customer_id_fkey" FOREIGN KEY ("sub_brand_id", "customer_id") REFERENCES "customers"("sub_brand_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_awards" ADD CONSTRAINT "campaign_awards_sub_brand_id_campaign_id_fkey" FOREIGN KEY ("sub_brand_id", "campaign_id") REFERENCES "campaigns"("sub_brand_id", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_awards" ADD CONSTRAINT "campaign_awards_sub_brand_id_customer_id_fkey" FOREIGN KEY ("sub_brand_id", "customer_id") REFERENCES "customers"("sub_brand_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_settlements" ADD CONSTRAINT "campaign_settlements_sub_brand_id_campaign_id_fkey" FOREIGN KEY ("sub_brand_id", "campaign_id") REFERENCES "campaigns"("sub_brand_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: the `campaign:` reason backstop on coin_movements carries the tenant too. Award and
-- draw ids are unique on their own, so (sub_brand_id, reason) refuses exactly what (reason) did.
DROP INDEX "coin_movements_campaign_reason_key";
CREATE UNIQUE INDEX "coin_movements_sub_brand_id_campaign_reason_key" ON "coin_movements" ("sub_brand_id", "reason")
  WHERE "reason" LIKE 'campaign:%';
