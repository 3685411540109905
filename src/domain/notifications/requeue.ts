// Sending a failed e-mail again (the backoffice's "Send again"): an operator fixed the cause (the
// address, the SMTP account) and puts the message back in the outbox. The same row, so the same
// Message-ID: a recipient who did get an earlier attempt can recognise the copy.
import type { Db } from '../db.js';
import { AppError } from '../errors.js';
import { isUuid } from '../ids.js';

/**
 * Moves a `failed` message back to `pending`, due now, with a fresh attempt budget; the
 * dispatcher then claims it once like any other. One guarded UPDATE decides: of two requeues at
 * once, one moves it and the other finds it no longer failed. `subBrandId` confines the caller to
 * one tenant (null: a platform admin's key, every tenant); another tenant's message is not found.
 *
 * Resetting `attempts` (the claims' fencing token) is safe because a failed row has no live
 * claim: the claim that failed it has ended, and an older one cannot outlive its lease (the SMTP
 * time-outs are shorter, docs/notifications.md). `lastError` stays until the next attempt, so
 * the screen still says why it failed.
 */
export async function requeueNotification(
  db: Db,
  options: { id: string; subBrandId: string | null; now?: Date },
) {
  const notFound = () =>
    new AppError('not_found', 'No such notification. List them with the notifications query.');
  if (!isUuid(options.id)) throw notFound();
  const where = {
    id: options.id.toLowerCase(),
    ...(options.subBrandId ? { subBrandId: options.subBrandId } : {}),
  };
  const { count } = await db.notification.updateMany({
    where: { ...where, status: 'failed' },
    data: { status: 'pending', attempts: 0, nextAttemptAt: options.now ?? new Date() },
  });
  const row = await db.notification.findFirst({ where });
  if (!row) throw notFound();
  if (count === 0) {
    throw new AppError(
      'invalid_transition',
      `Only a failed e-mail can be sent again; this one is ${row.status}.`,
    );
  }
  return row;
}
