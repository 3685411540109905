import type { Db } from '../db.js';
import { AppError, notFound } from '../errors.js';
import type { Tenant } from '../tenant.js';
import {
  applyMovements,
  applyMovementsLater,
  type AppliedMove,
  type MoveOptions,
  type MoveRequest,
  type RefusedMove,
} from './apply-movements.js';

/** One customer's move through the one ledger function; a refusal is an error. */
export async function moveCoins(
  db: Db,
  tenant: Tenant,
  move: MoveRequest,
  options: MoveOptions,
): Promise<AppliedMove> {
  return oneMove(await applyMovements(db, tenant, [move], options));
}

/** moveCoins, sent with the transaction's next statement (applyMovementsLater). */
export function moveCoinsLater(
  db: Db,
  tenant: Tenant,
  move: MoveRequest,
  options: MoveOptions,
): () => Promise<AppliedMove> {
  const moved = applyMovementsLater(db, tenant, [move], options);
  return async () => oneMove(await moved());
}

function oneMove({ applied, refused }: { applied: AppliedMove[]; refused: RefusedMove[] }) {
  if (applied[0]) return applied[0];
  const r = refused[0]!;
  if (r.refusal === 'not_found') throw notFound('Customer');
  if (r.refusal === 'insufficient_balance') {
    const available = r.balance! - r.held;
    throw new AppError(
      'insufficient_balance',
      r.held > 0
        ? `Insufficient balance: the customer has ${r.balance} coins, ${r.held} of them on hold, so ${available} to spend; a move of ${r.delta} would leave ${available + r.delta}.`
        : `Insufficient balance: the customer has ${r.balance} coins, so a move of ${r.delta} would leave ${r.balance! + r.delta}.`,
    );
  }
  throw new AppError(
    'invalid_request',
    `delta: would take the balance above ${Number.MAX_SAFE_INTEGER} coins`,
  );
}
