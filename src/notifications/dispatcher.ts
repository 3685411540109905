// The logistics e-mail dispatcher: runs in every server process (started by start-server.ts,
// stopped with it), claims due outbox rows (domain/notifications/outbox.ts), sends each over SMTP
// (SMTP_URL, nodemailer) and marks it. docs/notifications.md has the guarantees; in short:
// - one event, one row (unique per event), claimed by one dispatcher at a time (SKIP LOCKED and a
//   lease longer than every SMTP time-out), marked only under the claim that sent it;
// - a failure is retried with exponential backoff; after MAX attempts, or at once when the server
//   refuses for good (5xx), the row is `failed`, logged, and visible in GraphQL;
// - the one window left: a crash (or a lost database) after the SMTP server accepted the message
//   and before the mark commits. The lease then runs out and the message is sent again, with the
//   same Message-ID (`<notification id@host>`), which mail systems use to drop duplicates. We
//   chose this over losing the message.
import nodemailer from 'nodemailer';
import type { Db } from '../domain/db.js';
import {
  claimDue,
  markFailed,
  markSent,
  type ClaimedMessage,
} from '../domain/notifications/outbox.js';
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
  batch?: number;
  /** How long a claim lasts; longer than the SMTP time-outs below. Default 120 s. */
  leaseMs?: number;
  /** Attempts before a message is failed for good. Default 8. */
  maxAttempts?: number;
  /** The first retry's delay; each next one doubles, up to an hour. Default 30 s. */
  backoffMs?: number;
  now?: () => Date;
};

const SMTP_TIMEOUT_MS = 30_000;

export function createDispatcher(o: DispatcherOptions) {
  const leaseMs = o.leaseMs ?? 120_000;
  const maxAttempts = o.maxAttempts ?? 8;
  const backoffMs = o.backoffMs ?? 30_000;
  const now = o.now ?? (() => new Date());
  const transport = nodemailer.createTransport(o.smtpUrl, {
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  const domain = new URL(o.baseUrl).hostname || 'localhost';

  async function deliver(m: ClaimedMessage): Promise<void> {
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
      await markFailed(o.db, m, why, retryAt);
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
    if (!(await markSent(o.db, m, now()))) {
      o.logger.warn({ msg: 'e-mail sent after its claim was lost', notification_id: m.id });
    }
  }

  /** One round: claims what is due and sends it; answers how many were claimed. */
  async function runOnce(): Promise<number> {
    const claimed = await claimDue(o.db, now(), { batch: o.batch ?? 20, leaseMs });
    for (const m of claimed) await deliver(m);
    return claimed.length;
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
