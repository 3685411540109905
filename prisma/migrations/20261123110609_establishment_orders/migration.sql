-- CreateEnum
CREATE TYPE "notification_status" AS ENUM ('pending', 'sent', 'failed');

-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "contact_email" VARCHAR(254),
ADD COLUMN     "delivery_address_line1" VARCHAR(300),
ADD COLUMN     "delivery_address_line2" VARCHAR(300),
ADD COLUMN     "delivery_captured_at" TIMESTAMPTZ(3),
ADD COLUMN     "delivery_city" VARCHAR(120),
ADD COLUMN     "delivery_country" VARCHAR(120),
ADD COLUMN     "delivery_email" VARCHAR(254),
ADD COLUMN     "delivery_first_name" VARCHAR(100),
ADD COLUMN     "delivery_last_name" VARCHAR(100),
ADD COLUMN     "delivery_postal_code" VARCHAR(32),
ADD COLUMN     "delivery_province" VARCHAR(120),
ADD COLUMN     "exclusive_product_id" UUID,
ADD COLUMN     "reference" VARCHAR(16),
ADD COLUMN     "stock_consumed_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "variant_stock" ADD COLUMN     "consumed" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "reserved" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "notifications" (
    "id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "order_id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "template" VARCHAR(32) NOT NULL,
    "recipient" VARCHAR(254) NOT NULL,
    "subject" VARCHAR(300) NOT NULL,
    "html" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "status" "notification_status" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_error" VARCHAR(500),
    "sent_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("sub_brand_id","id")
);

-- CreateIndex
CREATE INDEX "notifications_sub_brand_id_environment_id_idx" ON "notifications"("sub_brand_id", "environment", "id" DESC);

-- CreateIndex
CREATE INDEX "notifications_status_next_attempt_at_idx" ON "notifications"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "notifications_order_id_idx" ON "notifications"("order_id");

-- CreateIndex
CREATE UNIQUE INDEX "notifications_sub_brand_id_event_id_key" ON "notifications"("sub_brand_id", "event_id");

-- CreateIndex
CREATE UNIQUE INDEX "orders_sub_brand_id_reference_key" ON "orders"("sub_brand_id", "reference");
-- Hand-written: at most one OPEN establishment reservation of a product per customer. An order
-- leaves the index when it is delivered or cancelled, so a later reservation is allowed again.
-- Two concurrent reservations wait on each other here and the second fails (23505).
CREATE UNIQUE INDEX "orders_open_exclusive_product_key" ON "orders"("sub_brand_id", "customer_id", "exclusive_product_id")
  WHERE "exclusive_product_id" IS NOT NULL AND "status" IN ('pending', 'processing', 'shipped');

ALTER TABLE "variant_stock" ADD CONSTRAINT "variant_stock_reserved_check" CHECK ("reserved" >= 0),
  ADD CONSTRAINT "variant_stock_consumed_check" CHECK ("consumed" >= 0);

-- Units already held by orders move into the new columns: open orders' units are reserved,
-- shipped and delivered orders' units consumed (cancelled orders gave theirs back already).
UPDATE "orders" SET "stock_consumed_at" = "status_changed_at" WHERE "status" IN ('shipped', 'delivered');
UPDATE "variant_stock" s SET
  "reserved" = COALESCE(t.open_units, 0),
  "consumed" = COALESCE(t.gone_units, 0)
FROM (
  SELECT i.variant_id, i.environment,
         sum(i.quantity) FILTER (WHERE o.status IN ('pending', 'processing'))::int AS open_units,
         sum(i.quantity) FILTER (WHERE o.status IN ('shipped', 'delivered'))::int AS gone_units
  FROM "order_items" i JOIN "orders" o ON o.id = i.order_id
  GROUP BY i.variant_id, i.environment
) t
WHERE s.variant_id = t.variant_id AND s.environment = t.environment;
