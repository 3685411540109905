// The outbox's claim and marks, for the dispatcher (src/notifications/dispatcher.ts).
//
// A dispatcher claims due messages in a short transaction of its own: FOR UPDATE SKIP LOCKED, so
// concurrent dispatchers (other processes) never take the same rows, and a lease: the claim moves
// next_attempt_at past the lease and bumps `attempts`, so a message is not due again while its
// claimer may still be sending it. `attempts` after the claim is the claim's fencing token: a mark
// applies only if the row still has it, so a dispatcher whose lease ran out (and whose message
// another dispatcher claimed again) cannot mark over the newer claim.
import { executeRaw } from '../../db/sql.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';

export type ClaimedMessage = {
  /** Null for the platform's e-mails to staff (domain/staff/staff-mail.ts). */
  subBrandId: string | null;
  id: string;
  recipient: string;
  subject: string;
  html: string;
  text: string;
  attempts: number;
};

export async function claimDue(
  db: Db,
  now: Date,
  options: { batch: number; leaseMs: number },
): Promise<ClaimedMessage[]> {
  const leaseUntil = new Date(now.getTime() + options.leaseMs);
  const rows = await db.$queryRaw<
    {
      sub_brand_id: string;
      id: string;
      recipient: string;
      subject: string;
      html: string;
      text: string;
      attempts: number;
    }[]
  >`
    WITH due AS (
      SELECT sub_brand_id, id FROM notifications
      WHERE status = 'pending' AND next_attempt_at <= ${now}
      ORDER BY next_attempt_at
      LIMIT ${options.batch}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE notifications n SET attempts = n.attempts + 1, next_attempt_at = ${leaseUntil}
    FROM due WHERE n.sub_brand_id = due.sub_brand_id AND n.id = due.id
    RETURNING n.sub_brand_id, n.id, n.recipient, n.subject, n.html, n.text, n.attempts`;
  return rows.map((r) => ({
    subBrandId: r.sub_brand_id,
    id: r.id,
    recipient: r.recipient,
    subject: r.subject,
    html: r.html,
    text: r.text,
    attempts: Number(r.attempts),
  }));
}

/** An outbox the dispatcher drains: the tenants' logistics e-mails, or the staff's. */
export type Outbox = {
  claimDue: typeof claimDue;
  markSent: typeof markSent;
  markFailed: typeof markFailed;
};

const claimOf = (m: ClaimedMessage) => ({
  subBrandId: m.subBrandId ?? undefined,
  id: m.id,
  attempts: m.attempts,
  status: 'pending' as const,
});

/**
 * Sent: answers false when the claim was lost (another dispatcher took it over). One statement
 * on the driver, sent the moment the relay accepted the message: until it commits, a crash means
 * the message goes out again (src/notifications/dispatcher.ts).
 */
export async function markSent(db: Db, m: ClaimedMessage, now: Date): Promise<boolean> {
  const changed = await executeRaw(
    db,
    Prisma.sql`UPDATE notifications SET status = 'sent', sent_at = ${now}, last_error = NULL
      WHERE sub_brand_id = ${m.subBrandId}::uuid AND id = ${m.id}::uuid
        AND attempts = ${m.attempts} AND status = 'pending'`,
  );
  return changed === 1;
}

/** A failed attempt: due again at `retryAt`, or `failed` for good when retryAt is null. */
export async function markFailed(
  db: Db,
  m: ClaimedMessage,
  error: string,
  retryAt: Date | null,
): Promise<boolean> {
  const { count } = await db.notification.updateMany({
    where: claimOf(m),
    data: retryAt
      ? { nextAttemptAt: retryAt, lastError: error.slice(0, 500) }
      : { status: 'failed', lastError: error.slice(0, 500) },
  });
  return count === 1;
}
