-- CreateEnum
CREATE TYPE "expiry_policy" AS ENUM ('none', 'rolling_days', 'fixed_date', 'inactivity_days');

-- AlterEnum
ALTER TYPE "movement_source" ADD VALUE 'expiry';

-- AlterTable
ALTER TABLE "coin_movements" ADD COLUMN     "lot_id" UUID;

-- AlterTable
ALTER TABLE "sub_brands" ADD COLUMN     "expiry_day" INTEGER,
ADD COLUMN     "expiry_days" INTEGER,
ADD COLUMN     "expiry_month" INTEGER,
ADD COLUMN     "expiry_policy" "expiry_policy" NOT NULL DEFAULT 'none';

-- AlterTable
ALTER TABLE "wallets" ADD COLUMN     "next_expiry_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "coin_lots" (
    "id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "movement_id" UUID,
    "amount" BIGINT NOT NULL,
    "remaining" BIGINT NOT NULL,
    "expires_at" TIMESTAMPTZ(3),
    "expiring_notice_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "coin_lots_pkey" PRIMARY KEY ("sub_brand_id","id")
);

-- CreateTable
CREATE TABLE "coin_lot_spends" (
    "movement_id" UUID NOT NULL,
    "lot_id" UUID NOT NULL,
    "amount" BIGINT NOT NULL,

    CONSTRAINT "coin_lot_spends_pkey" PRIMARY KEY ("movement_id","lot_id")
);

-- CreateTable
CREATE TABLE "coin_holds" (
    "id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "sub_brand_id" UUID NOT NULL,
    "environment" "environment" NOT NULL,
    "amount" BIGINT NOT NULL,
    "reason" VARCHAR(500),
    "status" VARCHAR(16) NOT NULL DEFAULT 'active',
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "captured_amount" BIGINT,
    "movement_id" UUID,
    "api_key_id" UUID,
    "request_id" VARCHAR(40),
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "closed_at" TIMESTAMPTZ(3),

    CONSTRAINT "coin_holds_pkey" PRIMARY KEY ("sub_brand_id","id")
);

-- CreateIndex
CREATE INDEX "coin_lots_customer_id_idx" ON "coin_lots"("customer_id");

-- CreateIndex
CREATE INDEX "coin_lot_spends_lot_id_idx" ON "coin_lot_spends"("lot_id");

-- CreateIndex
CREATE INDEX "coin_holds_customer_id_created_at_idx" ON "coin_holds"("customer_id", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "coin_lots" ADD CONSTRAINT "coin_lots_sub_brand_id_customer_id_fkey" FOREIGN KEY ("sub_brand_id", "customer_id") REFERENCES "customers"("sub_brand_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "coin_holds" ADD CONSTRAINT "coin_holds_sub_brand_id_customer_id_fkey" FOREIGN KEY ("sub_brand_id", "customer_id") REFERENCES "customers"("sub_brand_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Hand-written: what the schema language cannot say (docs/expiry-and-holds.md).

ALTER TABLE "sub_brands" ADD CONSTRAINT "sub_brands_expiry_policy_fields" CHECK (
  ("expiry_policy" = 'none' AND "expiry_days" IS NULL AND "expiry_month" IS NULL AND "expiry_day" IS NULL)
  OR ("expiry_policy" IN ('rolling_days', 'inactivity_days') AND "expiry_days" BETWEEN 1 AND 3660
      AND "expiry_month" IS NULL AND "expiry_day" IS NULL)
  OR ("expiry_policy" = 'fixed_date' AND "expiry_days" IS NULL
      AND "expiry_month" BETWEEN 1 AND 12 AND "expiry_day" BETWEEN 1 AND 31));
ALTER TABLE "coin_lots" ADD CONSTRAINT "coin_lots_remaining_within_amount"
  CHECK ("amount" > 0 AND "remaining" >= 0 AND "remaining" <= "amount");
ALTER TABLE "coin_holds" ADD CONSTRAINT "coin_holds_amount_positive" CHECK ("amount" > 0);
ALTER TABLE "coin_holds" ADD CONSTRAINT "coin_holds_status"
  CHECK ("status" IN ('active', 'captured', 'released', 'expired'));

-- The lots a debit spends, in the order it spends them: only lots with coins left.
CREATE INDEX "coin_lots_spending_order" ON "coin_lots" ("customer_id", "expires_at", "created_at", "id")
  WHERE "remaining" > 0;
-- What the expiry job writes off next, and what it announces seven days before.
CREATE INDEX "coin_lots_due" ON "coin_lots" ("expires_at") WHERE "remaining" > 0 AND "expires_at" IS NOT NULL;
-- The holds a debit must leave alone, and the ones the job closes at their expiry.
CREATE INDEX "coin_holds_active" ON "coin_holds" ("customer_id") WHERE "status" = 'active';
CREATE INDEX "coin_holds_expiring" ON "coin_holds" ("expires_at") WHERE "status" = 'active';

-- Every balance becomes one lot without expiry: Σ remaining of a wallet's lots is its balance.
INSERT INTO "coin_lots" ("id", "customer_id", "sub_brand_id", "environment", "movement_id", "amount", "remaining",
                         "expires_at", "created_at")
SELECT gen_random_uuid(), "customer_id", "sub_brand_id", "environment", NULL, "balance", "balance", NULL, "updated_at"
FROM "wallets" WHERE "balance" > 0;

-- A time-ordered id (RFC 9562 version 7, millisecond and random bits) for the rows the ledger
-- writes itself (an expiry's movement and events), so they sort with the ids the server draws.
CREATE FUNCTION ledger_uuid7() RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
    PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
    FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid
$$;

-- Writes off what is due of one LOCKED wallet at p_now: one `expiry:<lot id>` movement per lot
-- remainder, its events, and the holds the smaller balance no longer covers (newest first).
-- Returns the balance after; the caller writes it, and the wallet's next expiry, to the wallet.
CREATE FUNCTION ledger_expire_due(p_customer uuid, p_sub_brand uuid, p_env environment, p_balance bigint,
                                  p_now timestamptz) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE l record; h record; m uuid; bal bigint := p_balance; excess bigint; cut bigint;
BEGIN
  FOR l IN SELECT cl.id, cl.remaining, cl.expires_at FROM coin_lots cl
           WHERE cl.customer_id = p_customer AND cl.remaining > 0 AND cl.expires_at <= p_now
           ORDER BY cl.expires_at, cl.created_at, cl.id LOOP
    bal := bal - l.remaining;
    m := ledger_uuid7();
    UPDATE coin_lots SET remaining = 0 WHERE sub_brand_id = p_sub_brand AND id = l.id;
    INSERT INTO coin_movements (id, customer_id, sub_brand_id, environment, delta, reason, balance_after, source,
                                created_at, lot_id)
    VALUES (m, p_customer, p_sub_brand, p_env, -l.remaining, 'expiry:' || l.id, bal, 'expiry', p_now, l.id);
    INSERT INTO events (id, sub_brand_id, environment, type, resource_type, resource_id, data) VALUES
      (ledger_uuid7(), p_sub_brand, p_env, 'coin_movement.created', 'coin_movement', m::text, NULL),
      (ledger_uuid7(), p_sub_brand, p_env, 'coins.expired', 'coin_lot', l.id::text,
       jsonb_build_object('lot_id', l.id, 'customer_id', p_customer, 'amount', l.remaining,
                          'expires_at', to_char(l.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                          'movement_id', m, 'balance_after', bal));
  END LOOP;
  IF bal = p_balance THEN RETURN bal; END IF;
  SELECT coalesce(sum(amount), 0) - bal INTO excess FROM coin_holds
  WHERE customer_id = p_customer AND status = 'active' AND expires_at > p_now;
  FOR h IN SELECT id, amount FROM coin_holds WHERE customer_id = p_customer AND status = 'active' AND expires_at > p_now
           ORDER BY created_at DESC, id DESC LOOP
    EXIT WHEN excess <= 0;
    cut := least(h.amount, excess);
    excess := excess - cut;
    IF cut = h.amount THEN
      UPDATE coin_holds SET status = 'released', closed_at = p_now WHERE sub_brand_id = p_sub_brand AND id = h.id;
    ELSE
      UPDATE coin_holds SET amount = amount - cut WHERE sub_brand_id = p_sub_brand AND id = h.id;
    END IF;
    INSERT INTO events (id, sub_brand_id, environment, type, resource_type, resource_id)
    VALUES (ledger_uuid7(), p_sub_brand, p_env,
            CASE WHEN cut = h.amount THEN 'coin_hold.released' ELSE 'coin_hold.reduced' END, 'coin_hold', h.id::text);
  END LOOP;
  RETURN bal;
END $$;

-- The earliest expiry among a wallet's lots with coins left (null: none expires).
CREATE FUNCTION ledger_next_expiry(p_customer uuid) RETURNS timestamptz LANGUAGE sql STABLE AS $$
  SELECT min(expires_at) FROM coin_lots WHERE customer_id = p_customer AND remaining > 0
$$;

-- The expiry job's write-off of one wallet: locks it, writes off what is due. Returns the number
-- of lots written off (0 when another process or a movement of the wallet did it first).
CREATE FUNCTION ledger_expire(p_customer uuid, p_sub_brand uuid, p_env environment, p_now timestamptz)
RETURNS int LANGUAGE plpgsql AS $$
DECLARE bal bigint; after bigint; n int;
BEGIN
  SELECT balance INTO bal FROM wallets
  WHERE customer_id = p_customer AND sub_brand_id = p_sub_brand AND environment = p_env FOR UPDATE;
  IF NOT FOUND THEN RETURN 0; END IF;
  -- A new statement, so a new snapshot: what a process that held the lock before us committed is seen.
  SELECT count(*) INTO n FROM coin_lots
  WHERE customer_id = p_customer AND remaining > 0 AND expires_at <= p_now;
  IF n = 0 THEN RETURN 0; END IF;
  after := ledger_expire_due(p_customer, p_sub_brand, p_env, bal, p_now);
  UPDATE wallets SET balance = after, next_expiry_at = ledger_next_expiry(p_customer), updated_at = p_now
  WHERE customer_id = p_customer;
  RETURN n;
END $$;

-- THE ledger (src/domain/ledger/apply-movements.ts): applies signed deltas to distinct customers'
-- wallets of one tenant, each atomically: lock the wallet (in customer-id order, so overlapping
-- calls cannot deadlock), write off its due lots, decide on the balance as locked (a debit may
-- not spend held coins), write the movement and its event, and keep the lots: a credit opens one
-- (its id is the credit's; a refund first gives back to the lots its debit took from), a debit
-- spends them earliest expiry first, then oldest. One row per input: the movement's columns are
-- null when refused.
--
-- A function, not one statement: each statement in it takes a fresh snapshot, so everything
-- that held the wallet's lock before us (a lot opened, a lot spent, a hold) is seen once we hold
-- it; a single statement would decide the lots on the snapshot it took before waiting for the
-- lock. It is still one round trip from the server.
--
-- The wallet's next_expiry_at is at most the earliest expiry of its lots with coins left (a lot
-- that opens lowers it; a write-off sets it exactly; spending leaves it, early at worst): a move
-- looks for lots to write off only when it has passed, so most moves never query the lots for it.
CREATE FUNCTION ledger_move(
  p_ids uuid[], p_customers uuid[], p_deltas bigint[], p_reasons text[],
  p_sub_brand uuid, p_env environment, p_max bigint, p_source movement_source,
  p_api_key uuid, p_request_id text, p_bulk uuid, p_staff uuid, p_event_ids uuid[],
  p_now timestamptz, p_refund_of text)
RETURNS TABLE (customer_id uuid, requested bigint, locked_balance bigint, held bigint, id uuid, delta bigint,
               reason text, balance_after bigint, created_at timestamptz, seq bigint, lot_id uuid)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  k int; c uuid; d bigint; bal bigint; was bigint; nxt timestamptz; mid uuid; lot uuid; need bigint;
  take bigint; l record; debit uuid; revived boolean; sb record; expiry timestamptz;
BEGIN
  -- The expiry of a lot opened now, the same for every lot of the call. Days are UTC days (24
  -- hours, whatever the session's time zone); a fixed date starts at 00:00 UTC.
  SELECT s.expiry_policy, s.expiry_days, s.expiry_month, s.expiry_day INTO sb FROM sub_brands s WHERE s.id = p_sub_brand;
  IF sb.expiry_policy IN ('rolling_days', 'inactivity_days') THEN
    expiry := (p_now AT TIME ZONE 'UTC' + make_interval(days => sb.expiry_days)) AT TIME ZONE 'UTC';
  ELSIF sb.expiry_policy = 'fixed_date' THEN
    expiry := make_timestamptz(extract(year FROM p_now AT TIME ZONE 'UTC')::int, sb.expiry_month, sb.expiry_day,
                               0, 0, 0, 'UTC');
    IF expiry <= p_now THEN expiry := (expiry AT TIME ZONE 'UTC' + interval '1 year') AT TIME ZONE 'UTC'; END IF;
  END IF;
  FOR k IN SELECT u.ord FROM unnest(p_customers) WITH ORDINALITY AS u(cid, ord) ORDER BY u.cid LOOP
    c := p_customers[k]; d := p_deltas[k]; mid := p_ids[k];
    customer_id := c; requested := d; locked_balance := NULL; held := 0; id := NULL; delta := NULL;
    reason := NULL; balance_after := NULL; created_at := NULL; seq := NULL; lot_id := NULL;
    SELECT w.balance, w.next_expiry_at INTO was, nxt FROM wallets w
    WHERE w.customer_id = c AND w.sub_brand_id = p_sub_brand AND w.environment = p_env FOR UPDATE;
    IF NOT FOUND THEN RETURN NEXT; CONTINUE; END IF;
    -- Coins past their expiry are written off first: never spent, whatever the job's pace.
    bal := was;
    IF nxt <= p_now THEN
      bal := ledger_expire_due(c, p_sub_brand, p_env, was, p_now);
      nxt := ledger_next_expiry(c);
    END IF;
    locked_balance := bal;
    IF d < 0 THEN
      SELECT coalesce(sum(h.amount), 0) INTO held FROM coin_holds h
      WHERE h.customer_id = c AND h.status = 'active' AND h.expires_at > p_now;
    END IF;
    IF bal + d < 0 OR bal - held + d < 0 OR bal + d > p_max THEN
      IF bal <> was THEN
        UPDATE wallets SET balance = bal, next_expiry_at = nxt, updated_at = p_now WHERE customer_id = c;
      END IF;
      RETURN NEXT; CONTINUE;
    END IF;

    lot := NULL; revived := false;
    IF d > 0 THEN
      need := d;
      IF p_refund_of IS NOT NULL THEN
        -- A refund gives back to the lots its debit took from, the latest-expiring first.
        debit := NULL;
        SELECT m.id INTO debit FROM coin_movements m
        WHERE m.customer_id = c AND m.reason = p_refund_of AND m.delta < 0 ORDER BY m.seq DESC LIMIT 1;
        FOR l IN SELECT s.lot_id AS lid, s.amount, cl.expires_at FROM coin_lot_spends s
                 JOIN coin_lots cl ON cl.sub_brand_id = p_sub_brand AND cl.id = s.lot_id
                 WHERE s.movement_id = debit AND s.amount > 0
                 ORDER BY cl.expires_at DESC NULLS FIRST, cl.created_at DESC, cl.id DESC LOOP
          EXIT WHEN need = 0;
          take := least(l.amount, need);
          need := need - take;
          UPDATE coin_lots SET remaining = remaining + take WHERE sub_brand_id = p_sub_brand AND id = l.lid;
          INSERT INTO coin_lot_spends (movement_id, lot_id, amount) VALUES (mid, l.lid, -take);
          revived := revived OR l.expires_at <= p_now;
          nxt := least(nxt, l.expires_at);
        END LOOP;
      END IF;
      IF need > 0 THEN
        lot := mid;
        INSERT INTO coin_lots (id, customer_id, sub_brand_id, environment, movement_id, amount, remaining, expires_at,
                               created_at)
        VALUES (lot, c, p_sub_brand, p_env, mid, need, need, expiry, p_now);
        nxt := least(nxt, expiry);
      END IF;
    ELSE
      need := -d;
      FOR l IN SELECT cl.id AS lid, cl.remaining FROM coin_lots cl
               WHERE cl.customer_id = c AND cl.remaining > 0 ORDER BY cl.expires_at, cl.created_at, cl.id LOOP
        EXIT WHEN need = 0;
        take := least(l.remaining, need);
        need := need - take;
        UPDATE coin_lots SET remaining = remaining - take WHERE sub_brand_id = p_sub_brand AND id = l.lid;
        INSERT INTO coin_lot_spends (movement_id, lot_id, amount) VALUES (mid, l.lid, take);
      END LOOP;
      IF need > 0 THEN RAISE EXCEPTION 'ledger: the lots of wallet % hold less than its balance', c; END IF;
    END IF;

    bal := bal + d;
    INSERT INTO coin_movements (id, customer_id, sub_brand_id, environment, delta, reason, balance_after, source,
                                api_key_id, request_id, bulk_id, staff_user_id, created_at, lot_id)
    VALUES (mid, c, p_sub_brand, p_env, d, p_reasons[k], bal, p_source, p_api_key, p_request_id, p_bulk, p_staff,
            p_now, lot)
    RETURNING seq INTO seq;
    INSERT INTO events (id, sub_brand_id, environment, type, resource_type, resource_id)
    VALUES (p_event_ids[k], p_sub_brand, p_env, 'coin_movement.created', 'coin_movement', mid::text);
    id := mid; delta := d; reason := p_reasons[k]; balance_after := bal; created_at := p_now; lot_id := lot;
    -- Coins a refund gave back to a lot already expired are written off at once: never revived.
    IF revived THEN
      bal := ledger_expire_due(c, p_sub_brand, p_env, bal, p_now);
      nxt := ledger_next_expiry(c);
    END IF;
    IF sb.expiry_policy = 'inactivity_days' THEN
      -- Any movement is activity: every lot's expiry moves to N days from now.
      UPDATE coin_lots SET expires_at = expiry, expiring_notice_at = NULL WHERE customer_id = c AND remaining > 0;
      nxt := expiry;
    END IF;
    UPDATE wallets SET balance = bal, next_expiry_at = nxt, updated_at = p_now WHERE customer_id = c;
    RETURN NEXT;
  END LOOP;
END $$;
