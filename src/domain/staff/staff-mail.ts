// The platform's e-mails to staff (an invitation, a password reset): written to their own outbox
// in the transaction that made the link, and sent by the logistics dispatcher with the same
// claim, lease, fencing and backoff as the tenants' messages (src/notifications/dispatcher.ts).
// Its own table, because the tenants' outbox is readable by a tenant's staff and these carry a
// credential; once sent, a message's body is emptied, so the link lives only in the mailbox.
import { Prisma } from '../../generated/prisma/client.js';
import { executeRaw } from '../../db/sql.js';
import type { Db } from '../db.js';
import { newId } from '../ids.js';
import type { ClaimedMessage, Outbox } from '../notifications/outbox.js';
import { BASE_URL_MARK, escapeHtml } from '../notifications/templates.js';

export type StaffMailKind = 'invitation' | 'password_reset';

const WORDING: Record<StaffMailKind, { subject: string; lead: string; action: string }> = {
  invitation: {
    subject: 'You are invited to the Partner Rewards backoffice',
    lead: 'invited you to the Partner Rewards backoffice as',
    action: 'Choose your password',
  },
  password_reset: {
    subject: 'Choose a new password for the Partner Rewards backoffice',
    lead: 'reset your backoffice password. Your role stays',
    action: 'Choose a new password',
  },
};

/** The link's page reads the token from the fragment: it never reaches a server log or Referer. */
export const linkPath = (token: string) => `/admin/invitation#${token}`;

export async function enqueueStaffEmail(
  tx: Db,
  m: {
    kind: StaffMailKind;
    recipient: string;
    by: string;
    role: string;
    token: string;
    days: number;
  },
): Promise<void> {
  const w = WORDING[m.kind];
  const link = `${BASE_URL_MARK}${linkPath(m.token)}`;
  const text =
    `${m.by} ${w.lead} ${m.role}.\n\n${w.action}: ${link}\n\n` +
    `The link works once, for ${m.days} days. If you did not expect this e-mail, ignore it.\n`;
  const html =
    `<p>${escapeHtml(m.by)} ${escapeHtml(w.lead)} ${escapeHtml(m.role)}.</p>` +
    `<p><a href="${link}">${escapeHtml(w.action)}</a></p>` +
    `<p>The link works once, for ${m.days} days. If you did not expect this e-mail, ignore it.</p>`;
  await tx.staffEmail.create({
    data: { id: newId(), recipient: m.recipient, subject: w.subject, html, text },
  });
}

type Row = {
  id: string;
  recipient: string;
  subject: string;
  html: string;
  text: string;
  attempts: number;
};

/** The dispatcher's view of this outbox: the same claim and marks as the tenants' one. */
export const STAFF_OUTBOX: Outbox = {
  async claimDue(db, now, { batch, leaseMs }) {
    const leaseUntil = new Date(now.getTime() + leaseMs);
    const rows = await db.$queryRaw<Row[]>`
      WITH due AS (
        SELECT id FROM staff_emails
        WHERE status = 'pending' AND next_attempt_at <= ${now}
        ORDER BY next_attempt_at LIMIT ${batch}
        FOR UPDATE SKIP LOCKED
      )
      UPDATE staff_emails s SET attempts = s.attempts + 1, next_attempt_at = ${leaseUntil}
      FROM due WHERE s.id = due.id
      RETURNING s.id, s.recipient, s.subject, s.html, s.text, s.attempts`;
    return rows.map((r): ClaimedMessage => ({
      ...r,
      subBrandId: null,
      attempts: Number(r.attempts),
    }));
  },
  async markSent(db, m, now) {
    const changed = await executeRaw(
      db,
      Prisma.sql`UPDATE staff_emails SET status = 'sent', sent_at = ${now}, last_error = NULL,
          html = '', text = ''
        WHERE id = ${m.id}::uuid AND attempts = ${m.attempts} AND status = 'pending'`,
    );
    return changed === 1;
  },
  async markFailed(db, m, error, retryAt) {
    const { count } = await db.staffEmail.updateMany({
      where: { id: m.id, attempts: m.attempts, status: 'pending' },
      data: retryAt
        ? { nextAttemptAt: retryAt, lastError: error.slice(0, 500) }
        : { status: 'failed', lastError: error.slice(0, 500) },
    });
    return count === 1;
  },
};
