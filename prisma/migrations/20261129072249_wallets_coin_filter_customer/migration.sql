-- Issue 36, ten million customers: the coin filters' index also holds the customer, so that a
-- filter few wallets pass (min_coins=4990: 20,000 of 10,000,000) reads its customers from the
-- index alone (domain/customers/first-page.ts, fewWalletsMatching): ~20 ms cold at that size,
-- where visiting each passing wallet's row took 85-190 ms. It replaces the index on
-- (sub_brand_id, environment, balance), whose every use it serves as well.
-- DropIndex
DROP INDEX "wallets_sub_brand_id_environment_balance_idx";

-- CreateIndex
CREATE INDEX "wallets_sub_brand_id_environment_balance_customer_id_idx" ON "wallets"("sub_brand_id", "environment", "balance", "customer_id");
