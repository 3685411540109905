import { Prisma } from '../generated/prisma/client.js';

/** A unique constraint refused the write (Prisma P2002, or PostgreSQL 23505 from raw SQL). */
export function isUniqueViolation(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    return error.code === 'P2002' || (error.code === 'P2010' && /23505/.test(error.message));
  }
  return (error as { code?: string } | null)?.code === '23505';
}

/** PostgreSQL gave up waiting for a row lock (lock_timeout, SQLSTATE 55P03). */
export function isLockTimeout(error: unknown): boolean {
  return /55P03|lock timeout|lock_not_available/i.test(codeAndMessage(error));
}

/**
 * PostgreSQL broke a lock cycle by rolling this transaction back (deadlock_detected, SQLSTATE
 * 40P01): nothing of it was applied, and running it again is what PostgreSQL's manual advises.
 */
export function isDeadlock(error: unknown): boolean {
  return /40P01|deadlock detected/i.test(codeAndMessage(error));
}

/** An error's SQLSTATE and message, where the driver or Prisma put them. */
function codeAndMessage(error: unknown): string {
  return error instanceof Error
    ? `${(error as { code?: string }).code ?? ''} ${error.message}`
    : '';
}
