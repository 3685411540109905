-- Issue 35: what staff did to one record, newest first. A player's timeline
-- (domain/customers/timeline.ts) and the audit trail's target filter read it; before, both walked
-- the sub-brand's whole trail newest first to find a few entries about one player.
-- CreateIndex
CREATE INDEX "staff_audit_sub_brand_id_environment_target_id_created_at_idx" ON "staff_audit"("sub_brand_id", "environment", "target_id", "created_at" DESC);
