import { z } from 'zod';
import type { Db } from '../db.js';
import { notFound } from '../errors.js';
import { isUuid } from '../ids.js';
import { coinAmount, movementReason } from '../ledger/coins.js';
import { moveCoins } from '../ledger/move-coins.js';
import type { Actor, Tenant } from '../tenant.js';
import { parseInput } from '../validation.js';

export const adjustCoinsInput = z.strictObject({
  delta: coinAmount.refine((d) => d !== 0, 'must not be 0'),
  reason: movementReason.nullish(),
});

/** A partner's signed adjustment of one wallet: positive credits, negative debits. */
export function adjustCoins(
  db: Db,
  tenant: Tenant,
  actor: Actor,
  customerId: string,
  input: z.input<typeof adjustCoinsInput>,
  at?: Date,
) {
  const { delta, reason } = parseInput(adjustCoinsInput, input);
  if (!isUuid(customerId)) throw notFound('Customer');
  return moveCoins(
    db,
    tenant,
    { customerId, delta, reason: reason ?? null },
    // Nothing follows the move: its transaction may commit with it (apply-movements.ts).
    { ...actor, source: 'api', last: true, at },
  );
}
