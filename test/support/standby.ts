// A PostgreSQL primary and a streaming hot standby of its own, from Debian's binaries (initdb,
// pg_basebackup, pg_ctl; .ci/run installs the postgresql package where it is missing), in a
// temporary folder on free ports, stopped and removed after. The standby may apply what it
// receives late (recovery_min_apply_delay), as a replica under load does.
import { spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { freePort } from './ports.js';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The newest installed server's binaries. */
function binaries(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(path.join(root, v, 'bin', 'pg_basebackup')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions.length)
    throw new Error(`No PostgreSQL server binaries under ${root}: apt-get install postgresql`);
  return path.join(root, versions[0]!, 'bin');
}

export type PrimaryAndStandby = {
  primaryUrl: string;
  standbyUrl: string;
  stopStandby(): void;
  stop(): void;
};

export async function startPrimaryAndStandby(options: {
  applyDelayMs: number;
}): Promise<PrimaryAndStandby> {
  const bin = binaries();
  const dir = mkdtempSync(path.join(tmpdir(), 'rewards-replica-'));
  chmodSync(dir, 0o777); // the servers run as postgres (they refuse root) and write here
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) => {
    const command = path.join(bin, tool);
    const r = asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' })
      : spawnSync(command, args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${tool} failed: ${r.stderr || r.stdout || r.error}`);
  };
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const primary = path.join(dir, 'primary');
  const standby = path.join(dir, 'standby');
  run('initdb', ['-D', primary, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  appendFileSync(
    path.join(primary, 'postgresql.conf'),
    [
      `port = ${primaryPort}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      'fsync = off',
      'wal_level = replica',
      'max_wal_senders = 4',
      'shared_buffers = 32MB',
      '',
    ].join('\n'),
  );
  const stop = (data: string) => {
    if (existsSync(path.join(data, 'postmaster.pid')))
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
  };
  try {
    run('pg_ctl', ['-D', primary, '-l', path.join(dir, 'primary.log'), '-w', 'start']);
    run('pg_basebackup', [
      ...['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres'],
      ...['-D', standby, '-R', '-X', 'stream', '--no-sync'],
    ]);
    appendFileSync(
      path.join(standby, 'postgresql.conf'),
      [
        `port = ${standbyPort}`,
        'hot_standby = on',
        `recovery_min_apply_delay = '${options.applyDelayMs}ms'`,
        '',
      ].join('\n'),
    );
    run('pg_ctl', ['-D', standby, '-l', path.join(dir, 'standby.log'), '-w', 'start']);
  } catch (error) {
    stop(standby);
    stop(primary);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    primaryUrl: `postgresql://postgres@127.0.0.1:${primaryPort}/postgres`,
    standbyUrl: `postgresql://postgres@127.0.0.1:${standbyPort}/postgres`,
    stopStandby: () => stop(standby),
    stop() {
      stop(standby);
      stop(primary);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
