-- AlterTable
ALTER TABLE "product_variants" ADD COLUMN     "delivers_codes" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "sub_brands" ADD COLUMN     "frame_origins" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "customer_addresses" (
    "id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "first_name" VARCHAR(100) NOT NULL,
    "last_name" VARCHAR(100) NOT NULL,
    "address_line1" VARCHAR(300) NOT NULL,
    "address_line2" VARCHAR(300),
    "city" VARCHAR(120) NOT NULL,
    "province" VARCHAR(120),
    "postal_code" VARCHAR(32) NOT NULL,
    "country" CHAR(2) NOT NULL,
    "phone" VARCHAR(40),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "customer_addresses_pkey" PRIMARY KEY ("sub_brand_id","id")
);

-- CreateTable
CREATE TABLE "digital_codes" (
    "id" UUID NOT NULL,
    "variant_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "code" VARCHAR(500) NOT NULL,
    "order_item_id" UUID,
    "taken_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "digital_codes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "customer_addresses_sub_brand_id_customer_id_id_idx" ON "customer_addresses"("sub_brand_id", "customer_id", "id");

-- CreateIndex
CREATE INDEX "digital_codes_variant_id_environment_order_item_id_idx" ON "digital_codes"("variant_id", "environment", "order_item_id");

-- CreateIndex
CREATE INDEX "digital_codes_order_item_id_idx" ON "digital_codes"("order_item_id");

-- CreateIndex
CREATE UNIQUE INDEX "digital_codes_variant_id_environment_code_key" ON "digital_codes"("variant_id", "environment", "code");

-- AddForeignKey
ALTER TABLE "customer_addresses" ADD CONSTRAINT "customer_addresses_sub_brand_id_customer_id_fkey" FOREIGN KEY ("sub_brand_id", "customer_id") REFERENCES "customers"("sub_brand_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written
-- A code belongs to a variant, and goes with it.
ALTER TABLE "digital_codes" ADD CONSTRAINT "digital_codes_variant_fkey" FOREIGN KEY ("variant_id") REFERENCES "product_variants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
-- A taken code names its order line and when it was taken, both or neither.
ALTER TABLE "digital_codes" ADD CONSTRAINT "digital_codes_taken_consistent" CHECK (("order_item_id" IS NULL) = ("taken_at" IS NULL));
-- Saved addresses: an ISO country code.
ALTER TABLE "customer_addresses" ADD CONSTRAINT "customer_addresses_country_alpha2" CHECK ("country" ~ '^[A-Z]{2}$');
