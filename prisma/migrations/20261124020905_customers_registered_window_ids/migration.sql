-- DropIndex
DROP INDEX "customers_sub_brand_id_environment_platform_registered_at_idx";

-- CreateIndex
CREATE INDEX "customers_sub_brand_id_environment_platform_registered_at_i_idx" ON "customers"("sub_brand_id", "environment", "platform_registered_at", "id");