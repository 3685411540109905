-- The player record's prizes and plays are read for a page of players at once, by
-- (sub_brand_id, customer_id) without the environment (docs/campaigns.md, "The player record").

-- CreateIndex
CREATE INDEX "campaign_awards_sub_brand_id_customer_id_id_idx" ON "campaign_awards"("sub_brand_id", "customer_id", "id" DESC);

-- CreateIndex
CREATE INDEX "campaign_game_credits_sub_brand_id_customer_id_idx" ON "campaign_game_credits"("sub_brand_id", "customer_id");