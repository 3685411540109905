// Debian's PgBouncer (1.18) in transaction pooling mode, started by the test in front of the
// suite's PostgreSQL on a free port, and stopped after. No service, nothing left on the machine.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { freePort } from './ports.js';
import { tmpdir } from 'node:os';
import path from 'node:path';

const BINARY = '/usr/sbin/pgbouncer';

export type PgBouncer = { url(databaseUrl: string): string; stop(): Promise<void> };

export async function startPgBouncer(targetUrl: string): Promise<PgBouncer> {
  if (spawnSync(BINARY, ['--version']).status !== 0)
    throw new Error(
      `${BINARY} not found: install Debian's pgbouncer (apt-get install pgbouncer; .ci/run does)`,
    );
  const target = new URL(targetUrl);
  const dir = mkdtempSync(path.join(tmpdir(), 'rewards-pgbouncer-'));
  chmodSync(dir, 0o777); // PgBouncer refuses root; it runs as postgres and writes its log here
  const port = await freePort();
  const ini = path.join(dir, 'pgbouncer.ini');
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=${target.hostname} port=${target.port || 5432} user=${target.username || 'postgres'}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = any',
      'pool_mode = transaction',
      'max_client_conn = 500',
      'default_pool_size = 8',
      // The pg pool sends lock_timeout as a startup option, which transaction pooling cannot
      // keep per client: PgBouncer drops it (the server's own setting applies).
      'ignore_startup_parameters = extra_float_digits,options',
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
      `pidfile = ${path.join(dir, 'pgbouncer.pid')}`,
    ].join('\n'),
  );
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(BINARY, [...(asRoot ? ['-u', 'postgres'] : []), ini], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  // Ready when it accepts connections.
  const { default: pg } = await import('pg');
  const deadline = Date.now() + 15_000;
  for (;;) {
    const client = new pg.Client({
      host: '127.0.0.1',
      port,
      user: 'postgres',
      database: target.pathname.slice(1),
    });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      break;
    } catch (error) {
      await client.end().catch(() => {});
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`PgBouncer did not start: ${(error as Error).message}\n${output}`, {
          cause: error,
        });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    url(databaseUrl) {
      const u = new URL(databaseUrl);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
