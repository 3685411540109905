// A real SMTP server for the outbox tests (the `smtp-server` package), on a free local port. It
// records every message it accepts; `refuse` makes it answer the next DATA commands with an error.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type Received = { raw: string; messageId: string; to: string; subject: string };

/** `onAccepted`: called right after a message is accepted (its 250 on the way to the sender). */
export async function smtpServer(options: { onAccepted?: (count: number) => void } = {}) {
  const received: Received[] = [];
  const refusals: number[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const code = refusals.shift();
        if (code) {
          const error = new Error(
            code >= 500 ? 'mailbox unavailable' : 'try again later',
          ) as Error & {
            responseCode: number;
          };
          error.responseCode = code;
          return callback(error);
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const header = (name: string) =>
          new RegExp(`^${name}: *(.*)$`, 'im').exec(raw)?.[1]?.trim() ?? '';
        received.push({
          raw,
          messageId: header('Message-ID'),
          to: session.envelope.rcptTo.map((r) => r.address).join(','),
          subject: header('Subject'),
        });
        callback();
        options.onAccepted?.(received.length);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** The next messages are refused with these SMTP codes, in order. */
    refuse: (...codes: number[]) => refusals.push(...codes),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
