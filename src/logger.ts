import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
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
  });
}
