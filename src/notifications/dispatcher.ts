// The logistics e-mail dispatcher: runs in every server process (started by start-server.ts,
// stopped with it), claims due outbox rows (domain/notifications/outbox.ts), sends each over SMTP
// (SMTP_URL, nodemailer) and marks it. docs/notifications.md has the guarantees; in short:
// - one event, one row (unique per event), claimed by one dispatcher at a time (SKIP LOCKED and a
//   lease longer than every SMTP time-out), marked only under the claim that sent it. A message is
//   claimed right before it is sent, one at a time: a claim taken for a whole batch could run out
//   while the batch's first messages wait on a slow relay, and another process would send the
//   last ones again;
// - a failure is retried with exponential backoff; after MAX attempts, or at once when the server
//   refuses for good (5xx), the row is `failed`, logged, and visible in GraphQL;
// - the one window left, which SMTP cannot close (it has no two-phase commit): a crash (or a lost
//   database) after the relay accepted the message (its 250) and before the mark commits. The
//   mark is one prepared statement sent the moment the 250 arrives (nodemailer answers before it
//   closes the connection), so the window is that statement's round trip and commit (docs/
//   notifications.md has the figure). After such a crash the lease runs out and the message is
//   sent again, once, with the same Message-ID (`<notification id@host>`), which mail systems
//   use to drop duplicates. We chose this over losing the message: at most one duplicate per
//   crash of a dispatching process, and none without a crash.
import nodemailer from 'nodemailer';
import type { Db } from '../domain/db.js';
import * as orderOutbox from '../domain/notifications/outbox.js';
import type { ClaimedMessage, Outbox } from '../domain/notifications/outbox.js';
import { STAFF_OUTBOX } from '../domain/staff/staff-mail.js';
import { BASE_URL_MARK, escapeHtml } from '../domain/notifications/templates.js';
import type { Logger } from '../logger.js';

export type DispatcherOptions = {
  db: Db;
  logger: Logger;
  smtpUrl: string;
  from: string;
  /** The server's public address, for the tracking links. */
  baseUrl: string;
  /** How often to look for due messages. Default 1 s. */
  pollMs?: number;
  /** Messages sent per round at most. Default 20. */
  batch?: number;
  /** How long to wait on the relay at each step (connect, greeting, each reply). Default 30 s. */
  smtpTimeoutMs?: number;
  /** How long a claim lasts: longer than one message's SMTP time-outs. Default 4 × smtpTimeoutMs. */
  leaseMs?: number;
  /** Attempts before a message is failed for good. Default 8. */
  maxAttempts?: number;
  /** The first retry's delay; each next one doubles, up to an hour. Default 30 s. */
  backoffMs?: number;
  now?: () => Date;
};

/** The tenants' logistics e-mails, then the staff's invitations and resets: one sender for both. */
const OUTBOXES: Outbox[] = [orderOutbox, STAFF_OUTBOX];

export function createDispatcher(o: DispatcherOptions) {
  const timeout = o.smtpTimeoutMs ?? 30_000;
  const leaseMs = o.leaseMs ?? 4 * timeout;
  const maxAttempts = o.maxAttempts ?? 8;
  const backoffMs = o.backoffMs ?? 30_000;
  const now = o.now ?? (() => new Date());
  const transport = nodemailer.createTransport(o.smtpUrl, {
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  const domain = new URL(o.baseUrl).hostname || 'localhost';

  async function deliver(outbox: Outbox, m: ClaimedMessage): Promise<void> {
    try {
      await transport.sendMail({
        from: o.from,
        to: m.recipient,
        subject: m.subject,
        // Stable across retries: a resend after a crash is recognisably the same message.
        messageId: `<${m.id}@${domain}>`,
        html: m.html.replaceAll(BASE_URL_MARK, escapeHtml(o.baseUrl)),
        text: m.text.replaceAll(BASE_URL_MARK, o.baseUrl),
      });
    } catch (error) {
      const code = (error as { responseCode?: number }).responseCode;
      const permanent = code !== undefined && code >= 500;
      const why = `${code ?? ''} ${(error as Error).message}`.trim();
      const retryAt =
        permanent || m.attempts >= maxAttempts
          ? null
          : new Date(now().getTime() + Math.min(backoffMs * 2 ** (m.attempts - 1), 3_600_000));
      await outbox.markFailed(o.db, m, why, retryAt);
      if (retryAt) {
        o.logger.warn({
          msg: 'e-mail not sent; will retry',
          notification_id: m.id,
          attempts: m.attempts,
          error: why,
        });
      } else {
        o.logger.error({
          msg: 'e-mail failed for good',
          notification_id: m.id,
          attempts: m.attempts,
          error: why,
        });
      }
      return;
    }
    if (!(await outbox.markSent(o.db, m, now()))) {
      o.logger.warn({ msg: 'e-mail sent after its claim was lost', notification_id: m.id });
    }
  }

  /** One round: claims what is due, one message at a time, and sends it; answers how many. */
  async function runOnce(): Promise<number> {
    const batch = o.batch ?? 20;
    let sent = 0;
    for (const outbox of OUTBOXES) {
      while (sent < batch) {
        const [m] = await outbox.claimDue(o.db, now(), { batch: 1, leaseMs });
        if (!m) break;
        await deliver(outbox, m);
        sent++;
      }
    }
    return sent;
  }

  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const tick = () => {
    running = runOnce()
      .catch((err: unknown) => o.logger.warn({ msg: 'e-mail dispatch round failed', err }))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, o.pollMs ?? 1000);
      });
  };
  return {
    runOnce,
    start() {
      stopped = false;
      tick();
    },
    /** Stops polling and waits for the round in flight (its marks commit before we close). */
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      transport.close();
    },
  };
}
