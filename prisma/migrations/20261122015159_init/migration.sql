-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "environment" AS ENUM ('live', 'test');

-- CreateTable
CREATE TABLE "brands" (
    "id" UUID NOT NULL,
    "name" VARCHAR(120) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "brands_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sub_brands" (
    "id" UUID NOT NULL,
    "brand_id" UUID NOT NULL,
    "name" VARCHAR(120) NOT NULL,
    "country" CHAR(2),
    "currency" CHAR(3) NOT NULL DEFAULT 'EUR',
    "prepaid" BOOLEAN NOT NULL DEFAULT false,
    "is_platform" BOOLEAN NOT NULL DEFAULT false,
    "is_demo" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sub_brands_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "key_hash" CHAR(64) NOT NULL,
    "display_prefix" VARCHAR(24) NOT NULL,
    "scopes" TEXT[],
    "allowed_cidrs" TEXT[],
    "read_limit" INTEGER,
    "write_limit" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_records" (
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "key" VARCHAR(64) NOT NULL,
    "request_hash" CHAR(64) NOT NULL,
    "status_code" INTEGER,
    "response_body" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("sub_brand_id","environment","key")
);

-- CreateIndex
CREATE INDEX "sub_brands_brand_id_idx" ON "sub_brands"("brand_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");

-- CreateIndex
CREATE INDEX "api_keys_sub_brand_id_idx" ON "api_keys"("sub_brand_id");

-- CreateIndex
CREATE INDEX "idempotency_records_expires_at_idx" ON "idempotency_records"("expires_at");

-- AddForeignKey
ALTER TABLE "sub_brands" ADD CONSTRAINT "sub_brands_brand_id_fkey" FOREIGN KEY ("brand_id") REFERENCES "brands"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_sub_brand_id_fkey" FOREIGN KEY ("sub_brand_id") REFERENCES "sub_brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written (docs/database.md): invariants the schema language cannot say.
-- At most one platform establishment and one demo tenant.
CREATE UNIQUE INDEX "sub_brands_one_platform" ON "sub_brands" ((true)) WHERE "is_platform";
CREATE UNIQUE INDEX "sub_brands_one_demo" ON "sub_brands" ((true)) WHERE "is_demo";
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_limits_positive"
  CHECK (("read_limit" IS NULL OR "read_limit" > 0) AND ("write_limit" IS NULL OR "write_limit" > 0));
ALTER TABLE "idempotency_records" ADD CONSTRAINT "idempotency_records_key_ascii"
  CHECK ("key" ~ '^[\x20-\x7E]{1,64}$');
