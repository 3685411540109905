// On the embedded database the server holds PGlite (one process only), so while it runs the admin
// CLI cannot open the data folder. The server therefore listens on a Unix socket in that folder
// and runs the CLI's commands itself: `npm run admin` works whether or not a server is up, as the
// server's own banner promises. The socket is the data folder's: only the user who can read the
// database itself (mode 0600) can reach it, and it carries argument lists and, for `user create`,
// the password the CLI read from its operator's environment or terminal.
import { chmod, rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import path from 'node:path';
import type { Db } from '../domain/db.js';
import type { Secrets } from './command.js';
import type { AdminResult } from './usage.js';

export const adminSocketPath = (dataDir: string) => path.join(path.resolve(dataDir), 'admin.sock');

const MAX_BODY = 64 * 1024;

/** The server side: runs each request's argv as the CLI would, over the server's database. */
export async function serveAdminSocket(
  dataDir: string,
  db: Db,
): Promise<{ close(): Promise<void> }> {
  const socketPath = adminSocketPath(dataDir);
  await rm(socketPath, { force: true }); // left by a server that died; we hold the data folder lock
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > MAX_BODY) req.destroy();
    });
    req.on('end', () => {
      const reply = (result: AdminResult) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
      let request: { argv?: unknown; secrets?: { password?: unknown } } = {};
      try {
        request = JSON.parse(body) as typeof request;
      } catch {
        // answered as malformed below
      }
      const { argv } = request;
      const password = request.secrets?.password;
      if (
        !Array.isArray(argv) ||
        !argv.every((a) => typeof a === 'string') ||
        (password !== undefined && typeof password !== 'string')
      )
        return reply({ code: 2, stream: 'stderr', out: 'Malformed admin request.' });
      import('./commands.js')
        .then(({ runCommand }) => runCommand(argv as string[], db, { password }))
        .then(reply, (error: Error) => reply({ code: 1, stream: 'stderr', out: error.message }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject).listen(socketPath, () => resolve());
  });
  await chmod(socketPath, 0o600);
  return {
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(socketPath, { force: true });
    },
  };
}

/**
 * The CLI side: the running server's answer, or null when no server listens there. A password
 * travels in the body, over the socket only its owner can open, and is never logged.
 */
export function sendToServer(
  dataDir: string,
  argv: string[],
  secrets: Secrets = {},
): Promise<AdminResult | null> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        socketPath: adminSocketPath(dataDir),
        method: 'POST',
        path: '/',
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          try {
            resolve(JSON.parse(text) as AdminResult);
          } catch (error) {
            reject(error as Error);
          }
        });
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ENOENT' || error.code === 'ECONNREFUSED' ? resolve(null) : reject(error),
    );
    req.end(JSON.stringify({ argv, secrets }));
  });
}
