// Digital prizes delivered by code (docs/marketplace.md, "Digital prizes"): a pool of codes (or
// redemption links) per variant and environment. Such a variant's available units are its free
// codes (set when codes are added; its stock is not set by hand); a reservation of a variant that delivers codes takes one code per unit
// in its transaction (SKIP LOCKED: two orders never take the same code), and an order whose
// every line was delivered so is delivered at once. A code once taken is never given again.
import { z } from 'zod';
import { queryRaw } from '../../db/sql.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { Environment } from '../../generated/prisma/enums.js';
import { inTransaction, type Db } from '../db.js';
import { AppError, notFound } from '../errors.js';
import { isUuid, newId } from '../ids.js';
import { parseInput } from '../validation.js';

export const digitalCodesInput = z.strictObject({
  codes: z
    .array(z.string().trim().min(1).max(500))
    .min(1)
    .max(10_000)
    .describe('The codes (or https links) to add, each given once to one unit.'),
});

/**
 * Adds codes to a digital variant's pool (codes already in it are skipped); its units available
 * in `environment` become its free codes. Answers how many were added and the units now available.
 */
export async function addDigitalCodes(
  db: Db,
  variantId: string,
  environment: Environment,
  input: z.input<typeof digitalCodesInput>,
) {
  const { codes } = parseInput(digitalCodesInput, input);
  if (!isUuid(variantId)) throw notFound('Variant');
  return inTransaction(db, async (tx) => {
    const variant = await tx.productVariant.findUnique({
      where: { id: variantId },
      select: { product: { select: { kind: true } } },
    });
    if (!variant) throw notFound('Variant');
    if (variant.product.kind !== 'digital')
      throw new AppError(
        'invalid_request',
        'Codes deliver digital prizes only: this variant is physical.',
      );
    const distinct = [...new Set(codes)];
    const added = await tx.digitalCode.createMany({
      data: distinct.map((code) => ({ id: newId(), variantId, environment, code })),
      skipDuplicates: true,
    });
    await tx.productVariant.update({ where: { id: variantId }, data: { deliversCodes: true } });
    // Its units are its free codes: a unit without a code could be reserved and then not
    // delivered (units it had before its first code included).
    const free = await tx.digitalCode.count({
      where: { variantId, environment, orderItemId: null },
    });
    await tx.variantStock.upsert({
      where: { variantId_environment: { variantId, environment } },
      create: { variantId, environment, available: free },
      update: { available: free },
    });
    return { added: added.count, available: free };
  });
}

export type CodeLine = { orderItemId: string; variantId: string; quantity: number };

/**
 * Takes one code per unit of each line whose variant delivers codes, inside the reservation's
 * transaction. Answers false when a pool ran dry (the caller refuses the order: its rollback
 * gives back what was taken).
 */
export async function takeDigitalCodes(
  db: Db,
  environment: Environment,
  lines: CodeLine[],
  now: Date,
): Promise<boolean> {
  for (const line of lines) {
    const taken = await queryRaw<{ id: string }>(
      db,
      Prisma.sql`
      UPDATE digital_codes d SET order_item_id = ${line.orderItemId}::uuid, taken_at = ${now}
      WHERE d.id IN (
        SELECT id FROM digital_codes
        WHERE variant_id = ${line.variantId}::uuid AND environment = ${environment}::environment
          AND order_item_id IS NULL
        ORDER BY id LIMIT ${line.quantity}
        FOR UPDATE SKIP LOCKED)
      RETURNING d.id`,
    );
    if (taken.length < line.quantity) return false;
  }
  return true;
}

/** The codes given to these order lines, by line. */
export async function codesOf(db: Db, orderItemIds: string[]): Promise<Map<string, string[]>> {
  const byItem = new Map<string, string[]>();
  if (!orderItemIds.length) return byItem;
  const rows = await db.digitalCode.findMany({
    where: { orderItemId: { in: orderItemIds } },
    select: { orderItemId: true, code: true },
    orderBy: { id: 'asc' },
  });
  for (const r of rows) byItem.set(r.orderItemId!, [...(byItem.get(r.orderItemId!) ?? []), r.code]);
  return byItem;
}
