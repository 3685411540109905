// A mutation that placed an order answers it from the rows it wrote (domain/orders/insert-order.ts)
// when they hold everything the GraphQL selection loads: no read after the write, which would cost
// a round trip and open a Prisma transaction inside the order's (docs/performance.md). A selection
// that loads more (another relation, a filtered list) reads the order back, as before.
import type { Db } from '../domain/db.js';
import type { WrittenOrder } from '../domain/orders/insert-order.js';

/** The relations a written order carries: their fields (null: the whole row) and row order. */
const CARRIED: Record<string, { fields: readonly string[] | null; order?: string }> = {
  items: { fields: null, order: 'position' },
  events: { fields: null, order: 'id' },
  reservation: { fields: ['id'] },
  customer: { fields: ['email', 'firstName', 'lastName'] },
  subBrand: { fields: ['name', 'imageUrl', 'thumbnailUrl'] },
};

type Selection = Record<string, unknown> | undefined;
type RelationQuery = { select?: Selection; include?: Selection; orderBy?: unknown; take?: number };

/** Whether `written` answers a Pothos query (`{ include }` or `{ select }`) exactly. */
export function writtenAnswers(
  written: WrittenOrder,
  query: { include?: Selection; select?: Selection },
): boolean {
  const loaded = { ...query.include, ...query.select };
  return Object.entries(loaded).every(([key, value]) => {
    if (!value) return true;
    const carried = CARRIED[key];
    // A column: every one is in the written row. Anything else (a relation not carried, _count).
    if (!carried) return value === true && key in written;
    if (value === true) return carried.fields === null;
    const nested = value as RelationQuery & Record<string, unknown>;
    const known = new Set(['select', 'include', 'orderBy', 'take']);
    if (Object.keys(nested).some((k) => !known.has(k))) return false; // where, skip, cursor…
    if (nested.include && Object.values(nested.include).some(Boolean)) return false;
    const fields = Object.entries(nested.select ?? {}).filter(([, v]) => v);
    if (fields.some(([, v]) => v !== true)) return false; // a nested relation
    if (carried.fields && fields.some(([f]) => !carried.fields!.includes(f))) return false;
    if (nested.orderBy !== undefined) {
      const [by, ...more] = [nested.orderBy].flat() as Record<string, unknown>[];
      if (more.length || !by || Object.keys(by).join() !== carried.order) return false;
      if (by[carried.order] !== 'asc') return false;
    }
    const rows = written[key as keyof WrittenOrder];
    return nested.take === undefined || (Array.isArray(rows) && rows.length <= nested.take);
  });
}

/** The order a mutation placed, as the selection asks: the written rows, else a read of it. */
export function answerOrder(
  db: Db,
  query: { include?: Selection; select?: Selection },
  written: WrittenOrder,
) {
  return !written.stale && writtenAnswers(written, query)
    ? written
    : db.order.findUniqueOrThrow({ ...query, where: { id: written.id } });
}
