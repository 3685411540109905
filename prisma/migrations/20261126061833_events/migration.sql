-- CreateTable
CREATE TABLE "events" (
    "id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "type" VARCHAR(64) NOT NULL,
    "resource_type" VARCHAR(32) NOT NULL,
    "resource_id" VARCHAR(64) NOT NULL,
    "data" JSONB,
    "xid" BIGINT NOT NULL DEFAULT (pg_current_xact_id())::text::bigint,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "events_pkey" PRIMARY KEY ("sub_brand_id","id")
);

-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "url" VARCHAR(2048) NOT NULL,
    "description" VARCHAR(500),
    "event_types" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "status" VARCHAR(16) NOT NULL DEFAULT 'active',
    "disabled_reason" VARCHAR(500),
    "secret" VARCHAR(100) NOT NULL,
    "previous_secret" VARCHAR(100),
    "previous_expires_at" TIMESTAMPTZ(3),
    "failing_since" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("sub_brand_id","id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "status" VARCHAR(16) NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "replay" BOOLEAN NOT NULL DEFAULT false,
    "first_attempt_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("sub_brand_id","id")
);

-- CreateTable
CREATE TABLE "webhook_attempts" (
    "id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "delivery_id" UUID NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "status_code" INTEGER,
    "duration_ms" INTEGER NOT NULL,
    "error" VARCHAR(500),

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("sub_brand_id","id")
);

-- CreateTable
CREATE TABLE "event_relay" (
    "name" VARCHAR(32) NOT NULL,
    "xid" BIGINT NOT NULL DEFAULT 0,
    "last_id" UUID NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000',
    "holder" VARCHAR(64),
    "leased_until" TIMESTAMPTZ(3),

    CONSTRAINT "event_relay_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "events_sub_brand_id_environment_xid_id_idx" ON "events"("sub_brand_id", "environment", "xid", "id");

-- CreateIndex
CREATE INDEX "events_xid_id_idx" ON "events"("xid", "id");

-- CreateIndex
CREATE INDEX "webhook_endpoints_sub_brand_id_environment_status_idx" ON "webhook_endpoints"("sub_brand_id", "environment", "status");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_sub_brand_id_endpoint_id_id_idx" ON "webhook_deliveries"("sub_brand_id", "endpoint_id", "id" DESC);

-- CreateIndex
CREATE INDEX "webhook_deliveries_sub_brand_id_event_id_idx" ON "webhook_deliveries"("sub_brand_id", "event_id");

-- CreateIndex
CREATE INDEX "webhook_attempts_sub_brand_id_endpoint_id_id_idx" ON "webhook_attempts"("sub_brand_id", "endpoint_id", "id" DESC);

-- CreateIndex
CREATE INDEX "webhook_attempts_sub_brand_id_delivery_id_idx" ON "webhook_attempts"("sub_brand_id", "delivery_id");

-- Hand-written
-- The relays' rows: where each has got to.
INSERT INTO "event_relay" ("name") VALUES ('main'), ('nats');
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_status" CHECK ("status" IN ('active', 'disabled'));
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_status" CHECK ("status" IN ('pending', 'succeeded', 'failed'));
