-- CreateTable
CREATE TABLE "campaign_point_counts" (
    "sub_brand_id" UUID NOT NULL,
    "campaign_id" UUID NOT NULL,
    "level" SMALLINT NOT NULL,
    "bucket" BIGINT NOT NULL,
    "stripe" SMALLINT NOT NULL,
    "players" INTEGER NOT NULL,

    CONSTRAINT "campaign_point_counts_pkey" PRIMARY KEY ("sub_brand_id","campaign_id","level","bucket","stripe")
);
-- CreateIndex
CREATE INDEX "campaign_progress_sub_brand_id_environment_customer_id_idx" ON "campaign_progress"("sub_brand_id", "environment", "customer_id");

-- Hand-written: the counts are kept by a trigger, so every change of a player's points (the
-- activity's upsert, a customer's or a campaign's cascading delete, anything later) moves them in
-- the same transaction. A player with points p counts in bucket p >> 6l at each level l (0-10,
-- 64 bits) whose base-64 digit is not 0. "Players above p" is then, per level, the buckets after
-- p's own up to the end of its parent's block, at most 63 rows a level (docs/campaigns.md).
-- Rows are written in (level, bucket) order so two score changes never wait on each other in a
-- cycle. The stripe (the last byte of the player's id, 4 ways) spreads a popular value.
-- No semicolon may appear in this file except between statements: Prisma's pg adapter splits
-- migration scripts on every semicolon. Hence SQL functions of one statement, and the trigger's two
-- PL/pgSQL statements end with an escaped \073.
-- Level -1 (bucket 0) counts the participants (points > 0), so the field's size is a sum of a
-- few rows too.
CREATE FUNCTION campaign_point_delta(points bigint, sign integer)
RETURNS TABLE (level smallint, bucket bigint, players integer)
LANGUAGE sql IMMUTABLE AS $$
  SELECT l::smallint, CASE WHEN l < 0 THEN 0 ELSE points >> (6 * l) END, sign
  FROM generate_series(-1, 10) l
  WHERE points > 0 AND (l < 0 OR (points >> (6 * l)) & 63 <> 0)
$$;

CREATE FUNCTION campaign_point_counts_move(
  sub_brand uuid, campaign uuid, customer uuid, before_points bigint, after_points bigint)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO campaign_point_counts AS c (sub_brand_id, campaign_id, level, bucket, stripe, players)
  SELECT sub_brand, campaign, d.level, d.bucket, get_byte(uuid_send(customer), 15) & 3, sum(d.players)
  FROM (
    SELECT * FROM campaign_point_delta(before_points, -1)
    UNION ALL
    SELECT * FROM campaign_point_delta(after_points, 1)
  ) d
  GROUP BY d.level, d.bucket
  HAVING sum(d.players) <> 0
  ORDER BY d.level, d.bucket
  ON CONFLICT (sub_brand_id, campaign_id, level, bucket, stripe)
  DO UPDATE SET players = c.players + EXCLUDED.players
$$;

CREATE FUNCTION campaign_point_counts_track() RETURNS trigger
LANGUAGE plpgsql AS E'BEGIN
  PERFORM campaign_point_counts_move(
    coalesce(NEW.sub_brand_id, OLD.sub_brand_id),
    coalesce(NEW.campaign_id, OLD.campaign_id),
    coalesce(NEW.customer_id, OLD.customer_id),
    CASE WHEN TG_OP = ''INSERT'' THEN 0 ELSE OLD.points END,
    CASE WHEN TG_OP = ''DELETE'' THEN 0 ELSE NEW.points END)\073
  RETURN NULL\073
END';

CREATE TRIGGER campaign_point_counts_track
AFTER INSERT OR DELETE OR UPDATE OF points ON campaign_progress
FOR EACH ROW EXECUTE FUNCTION campaign_point_counts_track();

-- The standings already recorded.
INSERT INTO campaign_point_counts (sub_brand_id, campaign_id, level, bucket, stripe, players)
SELECT p.sub_brand_id, p.campaign_id, d.level, d.bucket, get_byte(uuid_send(p.customer_id), 15) & 3, count(*)
FROM campaign_progress p, campaign_point_delta(p.points, 1) d
GROUP BY 1, 2, 3, 4, 5;

-- Players of one tournament with more points than `points`: per level, the buckets after the one
-- `points` falls in, to the end of its parent's block (a player above is counted at exactly the
-- level where its digits first differ from those of `points`). At most 63 × 11 index entries per
-- stripe, whatever the field's size. One index range per level (LATERAL): joined on the level,
-- the planner misjudged the ranges and scanned the whole table.
CREATE FUNCTION campaign_players_above(sub_brand uuid, campaign uuid, points bigint)
RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT coalesce(sum(x.players), 0)::bigint
  FROM generate_series(0, 10) l,
  LATERAL (
    SELECT sum(c.players) AS players FROM campaign_point_counts c
    WHERE c.sub_brand_id = sub_brand AND c.campaign_id = campaign AND c.level = l
      AND c.bucket > (points >> (6 * l)) AND c.bucket <= ((points >> (6 * l)) | 63)
  ) x
$$;

-- Players of one tournament with points: its level -1 row (one per stripe).
CREATE FUNCTION campaign_participants(sub_brand uuid, campaign uuid)
RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT coalesce(sum(c.players), 0)::bigint FROM campaign_point_counts c
  WHERE c.sub_brand_id = sub_brand AND c.campaign_id = campaign AND c.level = -1 AND c.bucket = 0
$$;
