// Issue 29, G8: the e-mail dispatcher through kill -9. The SMTP sink kills the dispatching server
// process the moment it has accepted a message, before the process can mark it sent: the one
// window SMTP leaves open. Every message still arrives (no loss), and each crash sends at most
// one message a second time, with the same Message-ID (docs/notifications.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { createTenant } from '../support/factories.js';
import { ownDatabase, TEST_DB, type OwnDatabase } from '../support/harness.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { smtpServer } from './smtp.js';

const MESSAGES = 120;
/** After how many accepted messages the sink kills the process (one kill each). */
const KILL_AT = [15, 50, 90];

let own: OwnDatabase;
beforeAll(async () => {
  if (TEST_DB === 'postgres') own = await ownDatabase();
});
afterAll(() => own?.drop());

describe.runIf(TEST_DB === 'postgres')('logistics e-mails through kill -9', () => {
  it('loses none, and each crash sends at most one again, with its Message-ID', async () => {
    const tenant = await createTenant(own.db.prisma);
    const ids = Array.from({ length: MESSAGES }, () => newId());
    await own.db.prisma.notification.createMany({
      data: ids.map((id, i) => ({
        id,
        subBrandId: tenant.subBrandId,
        environment: 'test',
        orderId: newId(),
        eventId: newId(),
        template: 'reserved',
        recipient: `player${i}@example.com`,
        subject: `Your prize ${i}`,
        html: `<p>Prize ${i}</p>`,
        text: `Prize ${i}`,
      })),
    });
    let server: ServerProcess | undefined;
    const kills: number[] = [];
    const smtp = await smtpServer({
      onAccepted(count) {
        if (!KILL_AT.includes(count) || !server) return;
        kills.push(count);
        server.child.kill('SIGKILL'); // before its mark: the 250 is only now on its way
      },
    });
    const env = {
      DATABASE_URL: own.url!,
      SMTP_URL: smtp.url,
      // A short relay time-out, so a claim stranded by a crash is due again in 4 × 500 ms.
      SMTP_TIMEOUT_MS: '500',
    };
    const sent = () =>
      own.db.prisma.notification.count({
        where: { subBrandId: tenant.subBrandId, status: 'sent' },
      });
    try {
      for (;;) {
        server = await startServerProcess(env);
        const exit = new Promise((resolve) => server!.child.once('exit', resolve));
        const done = (async () => {
          while ((await sent()) < MESSAGES) await new Promise((r) => setTimeout(r, 100));
        })();
        if ((await Promise.race([exit.then(() => 'killed'), done.then(() => 'done')])) === 'done')
          break;
      }
      expect(await server.stop()).toBe(0);
    } finally {
      server?.child.kill('SIGKILL');
      await smtp.close();
    }
    expect(kills).toEqual(KILL_AT);
    const byId = new Map<string, number>();
    for (const m of smtp.received) byId.set(m.messageId, (byId.get(m.messageId) ?? 0) + 1);
    // No loss: every message arrived, under its own stable Message-ID.
    expect([...byId.keys()].sort()).toEqual(ids.map((id) => `<${id}@localhost>`).sort());
    // At most one duplicate per crash, each the same message (same Message-ID) again.
    const duplicates = smtp.received.length - byId.size;
    expect(duplicates).toBeLessThanOrEqual(KILL_AT.length);
    expect([...byId.values()].every((n) => n <= 2)).toBe(true);
    console.log(
      `e-mail crash test: ${MESSAGES} messages, ${KILL_AT.length} kills, ${duplicates} duplicates`,
    );
  }, 180_000);
});
