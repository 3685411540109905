// Starts the server as its own process, as `npm start` (src/server.ts through tsx) or production
// (`node dist/server.js`) does, and reads what it prints.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export type ServerProcess = {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** From spawn to the 'listening' line. */
  startedInMs: number;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
};

/** The server process, started as `entry` with `env` over the defaults of a test start. */
export function spawnServer(
  env: Record<string, string>,
  entry: 'source' | 'dist' = 'source',
): ChildProcess {
  const args = entry === 'dist' ? ['dist/server.js'] : ['--import', 'tsx', 'src/server.ts'];
  return spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      REDIS_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export async function startServerProcess(
  env: Record<string, string>,
  timeoutMs = 45_000,
  entry: 'source' | 'dist' = 'source',
): Promise<ServerProcess> {
  const spawnedAt = performance.now();
  const child = spawnServer(env, entry);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), timeoutMs);
    const check = () => {
      const match = /"msg":"listening","url":"(http:\/\/[^"]+)"/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', () => reject(new Error(`server exited:\n${out}`)));
  });
  return {
    child,
    url,
    startedInMs: Math.round(performance.now() - spawnedAt),
    output: () => out,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
