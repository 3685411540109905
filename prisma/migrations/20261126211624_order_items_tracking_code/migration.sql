-- Issue 35, search: an order is found by a line's tracking code (the backoffice's ⌘K search and
-- the Orders screen's search box, domain/orders/order-where.ts matchOrderIds), inside its tenant.
-- CreateIndex
CREATE INDEX "order_items_sub_brand_id_environment_tracking_code_idx" ON "order_items"("sub_brand_id", "environment", "tracking_code");

-- Hand-written (issue 35, search): a whole e-mail finds its player exactly, in any case, without
-- the trigram index (whose posting lists for "mail", ".com" and the like cover nearly every row:
-- 240 ms at 1,000,000 customers). Prisma's schema cannot say an expression index.
CREATE INDEX "customers_email_lower" ON "customers" ("sub_brand_id", "environment", lower("email"));
