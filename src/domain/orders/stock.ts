// Units of stock, taken and given back in one guarded statement each. Rows are locked in
// variant-id order, so two orders over the same variants cannot deadlock.
//
// A unit is in one of three columns: `available` (orderable), `reserved` (held by an open order)
// or `consumed` (its order was sent or shipped). Reserving moves available → reserved, sending
// or shipping reserved → consumed (once per order: orders.stock_consumed_at), cancelling gives
// the order's units back to available from wherever they are. Only a restock changes the sum.
import type { Environment } from '../../generated/prisma/enums.js';
import { executeRaw, queryRaw, queryRawLater } from '../../db/sql.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';

export type StockLine = { variantId: string; quantity: number };

/**
 * Takes every line's units; answers the variants that had too few. The caller refuses the order
 * when any is short, and its rollback undoes the lines that were taken.
 */
export async function takeStock(
  db: Db,
  environment: Environment,
  lines: StockLine[],
): Promise<{ short: { variantId: string; available: number }[] }> {
  return takeStockLater(db, environment, lines)();
}

/** takeStock, sent with the transaction's next statement (queryRawLater); its answer when asked. */
export function takeStockLater(
  db: Db,
  environment: Environment,
  lines: StockLine[],
): () => Promise<{ short: { variantId: string; available: number }[] }> {
  const taken = queryRawLater<{ variant_id: string; available: number; taken: boolean }>(
    db,
    Prisma.sql`
    WITH input AS (
      SELECT * FROM unnest(${lines.map((l) => l.variantId)}::uuid[], ${lines.map((l) => l.quantity)}::int[])
        AS i(variant_id, quantity)
    ), locked AS (
      SELECT s.variant_id, s.available FROM variant_stock s JOIN input i USING (variant_id)
      WHERE s.environment = ${environment}::environment
      ORDER BY s.variant_id
      FOR UPDATE OF s
    ), taken AS (
      UPDATE variant_stock s SET available = s.available - i.quantity, reserved = s.reserved + i.quantity
      FROM input i
      WHERE s.variant_id = i.variant_id AND s.environment = ${environment}::environment
        AND s.variant_id IN (SELECT variant_id FROM locked)
        AND s.available >= i.quantity
      RETURNING s.variant_id
    )
    SELECT l.variant_id, l.available, EXISTS (SELECT 1 FROM taken t WHERE t.variant_id = l.variant_id) AS taken
    FROM locked l`,
  );
  return async () => shortOf(lines, await taken());
}

/** The lines whose variant had too few units (or no stock row), with what it had. */
function shortOf(
  lines: StockLine[],
  rows: { variant_id: string; available: number; taken: boolean }[],
): { short: { variantId: string; available: number }[] } {
  const short = lines
    .map((line) => {
      const row = rows.find((r) => r.variant_id === line.variantId);
      return {
        variantId: line.variantId,
        available: row ? Number(row.available) : 0,
        taken: !!row?.taken,
      };
    })
    .filter((r) => !r.taken)
    .map(({ variantId, available }) => ({ variantId, available }));
  return { short };
}

/** Where an order's units are: still reserved, or consumed by its sending or shipping. */
export type Held = 'reserved' | 'consumed';

/**
 * Gives units back to `available` (a cancelled order's) from where the order holds them, locking
 * the rows in the same order as takeStock.
 */
export async function returnStock(
  db: Db,
  environment: Environment,
  lines: StockLine[],
  from: Held,
) {
  if (lines.length === 0) return;
  await executeRaw(
    db,
    Prisma.sql`
    WITH input AS (
      SELECT variant_id, sum(quantity)::int AS quantity
      FROM unnest(${lines.map((l) => l.variantId)}::uuid[], ${lines.map((l) => l.quantity)}::int[])
        AS i(variant_id, quantity)
      GROUP BY variant_id
    ), locked AS (
      SELECT s.variant_id FROM variant_stock s JOIN input i USING (variant_id)
      WHERE s.environment = ${environment}::environment
      ORDER BY s.variant_id
      FOR UPDATE OF s
    )
    UPDATE variant_stock s SET available = s.available + i.quantity,
      reserved = s.reserved - CASE WHEN ${from}::text = 'reserved' THEN i.quantity ELSE 0 END,
      consumed = s.consumed - CASE WHEN ${from}::text = 'consumed' THEN i.quantity ELSE 0 END
    FROM input i JOIN locked l USING (variant_id)
    WHERE s.variant_id = i.variant_id AND s.environment = ${environment}::environment`,
  );
}

/**
 * Moves an order's units from reserved to consumed. The caller holds the order's lock and checks
 * orders.stock_consumed_at, so this runs once per order; answers false when a row holds fewer
 * reserved units than the order (stock edited by hand underneath it), and then moves nothing.
 */
export async function consumeStock(
  db: Db,
  environment: Environment,
  lines: StockLine[],
): Promise<boolean> {
  if (lines.length === 0) return true;
  const rows = await queryRaw<{ short: number }>(
    db,
    Prisma.sql`
    WITH input AS (
      SELECT variant_id, sum(quantity)::int AS quantity
      FROM unnest(${lines.map((l) => l.variantId)}::uuid[], ${lines.map((l) => l.quantity)}::int[])
        AS i(variant_id, quantity)
      GROUP BY variant_id
    ), locked AS (
      SELECT s.variant_id, s.reserved FROM variant_stock s JOIN input i USING (variant_id)
      WHERE s.environment = ${environment}::environment
      ORDER BY s.variant_id
      FOR UPDATE OF s
    )
    SELECT count(*)::int AS short FROM input i LEFT JOIN locked l USING (variant_id)
    WHERE l.reserved IS NULL OR l.reserved < i.quantity`,
  );
  if (Number(rows[0]?.short ?? 0) > 0) return false;
  await executeRaw(
    db,
    Prisma.sql`
    WITH input AS (
      SELECT variant_id, sum(quantity)::int AS quantity
      FROM unnest(${lines.map((l) => l.variantId)}::uuid[], ${lines.map((l) => l.quantity)}::int[])
        AS i(variant_id, quantity)
      GROUP BY variant_id
    )
    UPDATE variant_stock s SET reserved = s.reserved - i.quantity, consumed = s.consumed + i.quantity
    FROM input i
    WHERE s.variant_id = i.variant_id AND s.environment = ${environment}::environment`,
  );
  return true;
}
