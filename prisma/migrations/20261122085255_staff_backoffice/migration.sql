-- CreateEnum
CREATE TYPE "staff_role" AS ENUM ('platform_admin', 'brand_admin', 'establishment_operator', 'support');

-- AlterTable
ALTER TABLE "coin_movements" ADD COLUMN     "staff_user_id" UUID;

-- AlterTable
ALTER TABLE "order_events" ADD COLUMN     "staff_user_id" UUID;

-- CreateTable
CREATE TABLE "staff_users" (
    "id" UUID NOT NULL,
    "email" VARCHAR(254) NOT NULL,
    "password_hash" VARCHAR(200) NOT NULL,
    "role" "staff_role" NOT NULL,
    "brand_id" UUID,
    "sub_brand_id" UUID,
    "disabled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "staff_users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "staff_sessions" (
    "id" UUID NOT NULL,
    "staff_user_id" UUID NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "csrf_token" VARCHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "user_agent" VARCHAR(300),

    CONSTRAINT "staff_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "staff_audit" (
    "id" UUID NOT NULL,
    "staff_user_id" UUID NOT NULL,
    "action" VARCHAR(80) NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "target_id" VARCHAR(80),
    "args" JSONB NOT NULL,
    "before" JSONB,
    "after" JSONB,
    "request_id" VARCHAR(40),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "staff_audit_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "staff_users_email_key" ON "staff_users"("email");

-- CreateIndex
CREATE UNIQUE INDEX "staff_sessions_token_hash_key" ON "staff_sessions"("token_hash");

-- CreateIndex
CREATE INDEX "staff_sessions_staff_user_id_idx" ON "staff_sessions"("staff_user_id");

-- CreateIndex
CREATE INDEX "staff_audit_sub_brand_id_created_at_idx" ON "staff_audit"("sub_brand_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "staff_audit_staff_user_id_created_at_idx" ON "staff_audit"("staff_user_id", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "coin_movements" ADD CONSTRAINT "coin_movements_staff_user_id_fkey" FOREIGN KEY ("staff_user_id") REFERENCES "staff_users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_staff_user_id_fkey" FOREIGN KEY ("staff_user_id") REFERENCES "staff_users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "staff_users" ADD CONSTRAINT "staff_users_brand_id_fkey" FOREIGN KEY ("brand_id") REFERENCES "brands"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "staff_users" ADD CONSTRAINT "staff_users_sub_brand_id_fkey" FOREIGN KEY ("sub_brand_id") REFERENCES "sub_brands"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "staff_sessions" ADD CONSTRAINT "staff_sessions_staff_user_id_fkey" FOREIGN KEY ("staff_user_id") REFERENCES "staff_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "staff_audit" ADD CONSTRAINT "staff_audit_staff_user_id_fkey" FOREIGN KEY ("staff_user_id") REFERENCES "staff_users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Hand-written: a role carries exactly the tenant it is scoped to (support: any one, or none).
ALTER TABLE "staff_users" ADD CONSTRAINT "staff_users_role_tenant_check" CHECK (
  (role = 'platform_admin' AND brand_id IS NULL AND sub_brand_id IS NULL) OR
  (role = 'brand_admin' AND brand_id IS NOT NULL AND sub_brand_id IS NULL) OR
  (role = 'establishment_operator' AND brand_id IS NULL AND sub_brand_id IS NOT NULL) OR
  (role = 'support' AND (brand_id IS NULL OR sub_brand_id IS NULL))
);
-- Hand-written: e-mails are stored lower-cased, so the unique index is case-insensitive.
ALTER TABLE "staff_users" ADD CONSTRAINT "staff_users_email_lower_check" CHECK (email = lower(email));
