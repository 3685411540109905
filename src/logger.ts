import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Lines are gathered and written to stdout 4 KB at a time (about 15 request lines), and at least
 * once a second: pino's default writes each line as soon as it can, through libuv's thread pool
 * (a write and a thread hand-off per few lines, ~10 % of a replayed request's CPU, issue 16).
 * What is gathered is written when the process exits, crashes included (pino flushes on 'exit');
 * a process killed with SIGKILL loses at most the last second.
 */
const FLUSH_BYTES = 4096;
const FLUSH_EVERY_MS = 1000;

/** The time of a line, made once per millisecond: the lines of one millisecond share it. */
let lastMs = -1;
let lastTime = '';
export function timeOfLine(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastTime = new Date(ms).toISOString();
  }
  return lastTime;
}
const isoTime = () => `,"time":"${timeOfLine()}"`;

/** Where a logger writes its lines (a line written there must be in the logger's format). */
export const destinationOf = (logger: Logger): { write(line: string): unknown } =>
  (logger as unknown as Record<symbol, { write(line: string): unknown }>)[pino.symbols.streamSym]!;

export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: isoTime,
      // Defence in depth: no code path logs a key, but a stray object with one is scrubbed.
      redact: {
        paths: [
          'authorization',
          '*.authorization',
          'headers.authorization',
          'key',
          '*.apiKey',
          'password',
          '*.password',
          'connectionString',
          '*.connectionString',
        ],
        censor: '[redacted]',
      },
    },
    pino.destination({
      dest: 1,
      minLength: FLUSH_BYTES,
      periodicFlush: FLUSH_EVERY_MS,
      sync: false,
    }),
  );
}
