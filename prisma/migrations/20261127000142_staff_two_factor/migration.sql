-- Staff administration in the backoffice (issue 35): invitations and resets by one-time link,
-- TOTP two-factor with recovery codes, a per-brand requirement, and the staff e-mail outbox.
-- CreateEnum
CREATE TYPE "staff_token_kind" AS ENUM ('invitation', 'password_reset');

-- AlterTable
ALTER TABLE "brands" ADD COLUMN     "staff_two_factor_required" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "staff_users" ADD COLUMN     "invited_by_id" UUID,
ADD COLUMN     "last_sign_in_at" TIMESTAMPTZ(3),
ADD COLUMN     "totp_enabled_at" TIMESTAMPTZ(3),
ADD COLUMN     "totp_last_step" BIGINT,
ADD COLUMN     "totp_secret" VARCHAR(64),
ALTER COLUMN "password_hash" DROP NOT NULL;

-- CreateTable
CREATE TABLE "staff_recovery_codes" (
    "staff_user_id" UUID NOT NULL,
    "code_hash" CHAR(64) NOT NULL,
    "used_at" TIMESTAMPTZ(3),

    CONSTRAINT "staff_recovery_codes_pkey" PRIMARY KEY ("staff_user_id","code_hash")
);

-- CreateTable
CREATE TABLE "staff_tokens" (
    "id" UUID NOT NULL,
    "staff_user_id" UUID NOT NULL,
    "kind" "staff_token_kind" NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "staff_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "staff_emails" (
    "id" UUID NOT NULL,
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

    CONSTRAINT "staff_emails_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "staff_tokens_token_hash_key" ON "staff_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "staff_tokens_staff_user_id_idx" ON "staff_tokens"("staff_user_id");

-- CreateIndex
CREATE INDEX "staff_emails_status_next_attempt_at_idx" ON "staff_emails"("status", "next_attempt_at");

-- AddForeignKey
ALTER TABLE "staff_recovery_codes" ADD CONSTRAINT "staff_recovery_codes_staff_user_id_fkey" FOREIGN KEY ("staff_user_id") REFERENCES "staff_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "staff_tokens" ADD CONSTRAINT "staff_tokens_staff_user_id_fkey" FOREIGN KEY ("staff_user_id") REFERENCES "staff_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;