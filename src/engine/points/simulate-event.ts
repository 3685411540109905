// simulateEngineEvent: the whole pipeline for a sample payload, without claiming a key, moving
// coins or writing audit, explaining the outcome, so a definition can be tried before it goes live.
import type { Db } from '../../domain/db.js';
import { AppError } from '../../domain/errors.js';
import type { Tenant } from '../../domain/tenant.js';
import { decide } from './decide.js';
import { preflight } from './preflight.js';

export type Simulation = {
  status: 'completed' | 'skipped' | 'failed' | 'rejected';
  errorCode: string | null;
  explanation: string;
  customerId: string | null;
  pointsRequested: number;
  balanceBefore: number;
  balanceAfter: number;
};

export async function simulateEvent(
  db: Db,
  tenant: Tenant,
  sample: { eventCode: string; data: Record<string, unknown>; pointsOverride?: number | undefined },
  now: Date,
): Promise<Simulation> {
  let definition;
  try {
    definition = await preflight(db, tenant, { channel: 'events', ...sample });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return {
      status: 'rejected',
      errorCode: error.code,
      explanation: error.message,
      customerId: null,
      pointsRequested: sample.pointsOverride ?? 0,
      balanceBefore: 0,
      balanceAfter: 0,
    };
  }
  const points = sample.pointsOverride ?? definition.points;
  const decision = await decide(db, tenant, sample.data, definition, now);
  const wallet = decision.customerId
    ? await db.wallet.findUnique({ where: { customerId: decision.customerId } })
    : null;
  const balance = Number(wallet?.balance ?? 0);
  if (decision.status !== 'completed') {
    return {
      status: decision.status,
      errorCode: decision.errorCode,
      explanation: decision.why,
      customerId: decision.customerId,
      pointsRequested: points,
      balanceBefore: balance,
      balanceAfter: balance,
    };
  }
  if (balance + points < 0) {
    return {
      status: 'failed',
      errorCode: 'insufficient_balance',
      explanation: `The player has ${balance} coins; ${points} would take them below zero.`,
      customerId: decision.customerId,
      pointsRequested: points,
      balanceBefore: balance,
      balanceAfter: balance,
    };
  }
  return {
    status: 'completed',
    errorCode: null,
    explanation: `Every rule passes: ${points} coins would move.`,
    customerId: decision.customerId,
    pointsRequested: points,
    balanceBefore: balance,
    balanceAfter: balance + points,
  };
}
