-- CreateTable
CREATE TABLE "coin_report_hours" (
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "source" VARCHAR(16) NOT NULL,
    "credited" BIGINT NOT NULL DEFAULT 0,
    "debited" BIGINT NOT NULL DEFAULT 0,
    "credits" INTEGER NOT NULL DEFAULT 0,
    "debits" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "coin_report_hours_pkey" PRIMARY KEY ("sub_brand_id","environment","hour","source")
);

-- CreateTable
CREATE TABLE "report_watermarks" (
    "name" VARCHAR(32) NOT NULL,
    "xid" BIGINT NOT NULL DEFAULT 0,
    "folded_at" TIMESTAMPTZ(3),

    CONSTRAINT "report_watermarks_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "coin_movements_sub_brand_id_environment_created_at_idx" ON "coin_movements"("sub_brand_id", "environment", "created_at");

-- Hand-written (docs/reports.md): the report source of a movement (a hold's capture is an `api`
-- movement with reason `hold:<id>`; it is reported as `hold`).
CREATE FUNCTION report_source(p_source movement_source, p_delta bigint, p_reason text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN p_source = 'api' AND p_delta < 0 AND p_reason LIKE 'hold:%' THEN 'hold' ELSE p_source::text END
$$;

-- The watermark: every transaction below it has ended. What committed before it is folded now;
-- the rollup job folds the rest (the movements whose event's xid is at or above it).
INSERT INTO "report_watermarks" ("name", "xid", "folded_at")
VALUES ('coins', pg_snapshot_xmin(pg_current_snapshot())::text::bigint, now());

INSERT INTO "coin_report_hours" ("sub_brand_id", "environment", "hour", "source", "credited", "debited", "credits", "debits")
SELECT m.sub_brand_id, m.environment, date_trunc('hour', m.created_at, 'UTC'), report_source(m.source, m.delta, m.reason),
       coalesce(sum(m.delta) FILTER (WHERE m.delta > 0), 0), coalesce(-sum(m.delta) FILTER (WHERE m.delta < 0), 0),
       count(*) FILTER (WHERE m.delta > 0), count(*) FILTER (WHERE m.delta < 0)
FROM "coin_movements" m
WHERE NOT EXISTS (
  SELECT 1 FROM "events" e
  WHERE e.type = 'coin_movement.created' AND e.resource_id = m.id::text
    AND e.xid >= (SELECT "xid" FROM "report_watermarks" WHERE "name" = 'coins'))
GROUP BY 1, 2, 3, 4;
