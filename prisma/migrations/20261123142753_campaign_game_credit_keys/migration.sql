-- A player's plays belong to the player and the campaign (composite keys, docs/scaling.md): they go
-- with either, and the player record reads them through the relation (docs/campaigns.md). Plays
-- of a player or campaign already gone had no owner left to use them, so they go first.
DELETE FROM "campaign_game_credits" g
WHERE NOT EXISTS (SELECT 1 FROM "customers" c WHERE c."sub_brand_id" = g."sub_brand_id" AND c."id" = g."customer_id")
   OR NOT EXISTS (SELECT 1 FROM "campaigns" k WHERE k."sub_brand_id" = g."sub_brand_id" AND k."id" = g."campaign_id");

-- AddForeignKey
ALTER TABLE "campaign_game_credits" ADD CONSTRAINT "campaign_game_credits_sub_brand_id_campaign_id_fkey" FOREIGN KEY ("sub_brand_id", "campaign_id") REFERENCES "campaigns"("sub_brand_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_game_credits" ADD CONSTRAINT "campaign_game_credits_sub_brand_id_customer_id_fkey" FOREIGN KEY ("sub_brand_id", "customer_id") REFERENCES "customers"("sub_brand_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;