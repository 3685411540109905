-- CreateTable
CREATE TABLE "event_definitions" (
    "id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "code" VARCHAR(64) NOT NULL,
    "points" INTEGER NOT NULL,
    "constraints" JSONB NOT NULL DEFAULT '{}',
    "player_id_field" VARCHAR(64) NOT NULL DEFAULT 'externalUserId',
    "idempotency_key_field" VARCHAR(64),
    "allow_points_override" BOOLEAN NOT NULL DEFAULT false,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "event_definitions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "event_definitions_sub_brand_id_code_key" ON "event_definitions"("sub_brand_id", "code");

-- AddForeignKey
ALTER TABLE "event_definitions" ADD CONSTRAINT "event_definitions_sub_brand_id_fkey" FOREIGN KEY ("sub_brand_id") REFERENCES "sub_brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;
-- Hand-written (docs/database.md): the limits of a definition.
ALTER TABLE "event_definitions" ADD CONSTRAINT "event_definitions_points_range"
  CHECK ("points" <> 0 AND "points" BETWEEN -1000000 AND 1000000);
ALTER TABLE "event_definitions" ADD CONSTRAINT "event_definitions_constraints_object"
  CHECK (jsonb_typeof("constraints") = 'object');
