// Configuration from the environment, validated once at start: a bad value stops the process
// with a message naming the variable, instead of failing later in some request.
import path from 'node:path';
import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A yes/no variable: 1/true/yes or 0/false/no, nothing else (a typo must not read as "no"). */
const flag = z
  .string()
  .toLowerCase()
  .pipe(
    z.enum(['1', 'true', 'yes', '0', 'false', 'no'], {
      message: 'must be 1/true/yes or 0/false/no',
    }),
  )
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

/** `*`, or a comma-separated list of origins such as https://app.example.com. */
const origins = z
  .string()
  .transform((v) =>
    v
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
  )
  .pipe(
    z.array(
      z.union([
        z.literal('*'),
        z
          .string()
          .regex(
            /^https?:\/\/[^/\s]+$/,
            'each origin must be scheme://host[:port], without a path',
          ),
      ]),
    ),
  );

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// connection URL')
    .optional(),
  /** A hot standby of DATABASE_URL: lists, searches, reports and leaderboards read there. */
  DATABASE_READ_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// connection URL')
    .optional(),
  /** How long a read waits for the standby to replay its caller's last write (then: primary). */
  DATABASE_READ_MAX_WAIT_MS: z.coerce.number().int().min(0).max(10_000).default(200),
  DATA_DIR: z.string().min(1).default('./data'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  PUBLIC_BASE_URL: z.url({ message: 'must be an absolute http(s) URL' }).optional(),
  NODE_ENV: z.string().default('development'),
  /** Number of proxies in front of the server whose X-Forwarded-For is trusted (allowlists). */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** Server processes (one per core is typical); above 1 needs DATABASE_URL. */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /** How long an engine delivery's claim is honoured before a retry may take it over. */
  ENGINE_CLAIM_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  // Read where store sessions are signed (domain/store-sessions); validated here so a weak
  // secret stops the server at start rather than signing with it.
  STORE_SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  // Read where mini-game seeds are sealed (engine/campaigns/seed-cipher.ts; docs/fairness.md): the
  // AES-256-GCM key is SHA-256 of it. Unset in production: plays and seed rotations refuse.
  FAIRNESS_SEED_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  /** The key before a change: it still opens the seeds it sealed until they are rotated out. */
  FAIRNESS_SEED_KEY_PREVIOUS: z.string().min(32, 'must be at least 32 characters').optional(),
  /** The demo tenant on a fresh database. Default: on for the embedded database only. */
  DEMO: flag.optional(),
  /** Browser origins allowed to call the API (CORS). Unset: none. */
  CORS_ORIGINS: origins.optional(),
  /** Named prepared statements on PostgreSQL; false behind PgBouncer < 1.21 in transaction mode. */
  DATABASE_PREPARED_STATEMENTS: flag.default(true),
  /** Where logistics e-mails go out: smtp://user:pass@host:port or smtps://…. Unset: they wait in the outbox. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  /** The From header of logistics e-mails. */
  SMTP_FROM: z.string().min(3).max(200).default('Partner Rewards <no-reply@localhost>'),
  /** How long to wait on the SMTP relay at each step; a message's claim lasts four times this. */
  SMTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  /** NATS with JetStream: every outbound event is also published there (docs/webhooks.md). */
  EVENTS_NATS_URL: z
    .string()
    .regex(/^(nats|tls|wss?):\/\//, 'must be a nats:// (or tls://, ws://, wss://) URL')
    .optional(),
  /** Days events (and webhook delivery history) are kept. */
  EVENTS_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
});

export type Config = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  readDatabaseUrl: string | undefined;
  readMaxWaitMs: number;
  dataDir: string;
  redisUrl: string | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
  publicBaseUrl: string | undefined;
  production: boolean;
  trustProxy: number;
  poolSize: number;
  workers: number;
  engineClaimTimeoutMs: number;
  /** Create the demo tenant on a fresh database (and show its key, outside production). */
  demo: boolean;
  corsOrigins: string[];
  preparedStatements: boolean;
  smtpUrl: string | undefined;
  smtpFrom: string;
  smtpTimeoutMs: number;
  eventsNatsUrl: string | undefined;
  eventsRetentionDays: number;
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "unset", as a shell user expects from `FOO= npm start`.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.WEB_CONCURRENCY > 1 && !e.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration:\n  WEB_CONCURRENCY: above 1 needs DATABASE_URL (the embedded database belongs to one process)',
    );
  }
  if (e.DATABASE_READ_URL && !e.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration:\n  DATABASE_READ_URL: needs DATABASE_URL (a standby of that PostgreSQL)',
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    readDatabaseUrl: e.DATABASE_READ_URL,
    readMaxWaitMs: e.DATABASE_READ_MAX_WAIT_MS,
    dataDir: path.resolve(e.DATA_DIR),
    redisUrl: e.REDIS_URL,
    logLevel: e.LOG_LEVEL,
    publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    production: e.NODE_ENV === 'production',
    trustProxy: e.TRUST_PROXY,
    poolSize: e.DATABASE_POOL_SIZE,
    workers: e.WEB_CONCURRENCY,
    engineClaimTimeoutMs: e.ENGINE_CLAIM_TIMEOUT_MS,
    // The demo belongs to the embedded database a developer starts with, or to an explicit DEMO=1;
    // a production PostgreSQL never gets a tenant and a key nobody asked for.
    demo: e.DEMO ?? !e.DATABASE_URL,
    corsOrigins: e.CORS_ORIGINS ?? [],
    preparedStatements: e.DATABASE_PREPARED_STATEMENTS,
    smtpUrl: e.SMTP_URL,
    smtpFrom: e.SMTP_FROM,
    smtpTimeoutMs: e.SMTP_TIMEOUT_MS,
    eventsNatsUrl: e.EVENTS_NATS_URL,
    eventsRetentionDays: e.EVENTS_RETENTION_DAYS,
  };
}
