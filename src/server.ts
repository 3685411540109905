// `npm start`: configuration, database (migrated), the demo tenant on a fresh database, the HTTP
// server, and a graceful stop on SIGTERM/SIGINT.
import cluster from 'node:cluster';
import type { Server } from 'node:http';
import { createApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { DataDirBusyError } from './db/data-dir-lock.js';
import { ensureDemo } from './domain/tenancy/ensure-demo.js';
import { createDemoOperator } from './domain/staff/demo-operator.js';
import { createRateLimitStore } from './http/rate-limit.js';
import { configureHttpServer } from './http/server-options.js';
import { createLogger, type Logger } from './logger.js';
import { sweepExpiredIdempotencyRecords } from './rest/idempotency.js';
import { sweepExpiredRevocations } from './domain/store-sessions/store-session.js';

const SWEEP_EVERY_MS = 10 * 60 * 1000;
const STOP_GRACE_MS = 10_000;

export async function startServer(config: Config, logger: Logger) {
  const db = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.poolSize,
    holder: 'server',
  });
  if (db.appliedMigrations.length)
    logger.info({ msg: 'migrations applied', migrations: db.appliedMigrations });
  // In a cluster the primary made the demo tenant; workers never do.
  const demo = cluster.isWorker ? null : await demoOnFreshDatabase(db.prisma);
  // The backoffice's demo operator: embedded database only, never a production one.
  const operator =
    demo?.created && db.kind === 'pglite' ? await createDemoOperator(db.prisma) : null;

  const rateLimits = createRateLimitStore({ redisUrl: config.redisUrl, logger });
  if (!(await rateLimits.ready())) {
    logger.warn({ msg: 'Redis not reachable yet: rate limits count per process until it is' });
  }
  const app = createApp({
    prisma: db.prisma,
    logger,
    rateLimits,
    publicBaseUrl: config.publicBaseUrl,
    graphiql: !config.production,
    trustProxy: config.trustProxy,
    engine: { claimTimeoutMs: config.engineClaimTimeoutMs },
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = configureHttpServer(
      app.listen(config.port, config.host, () => resolve(s)).on('error', reject),
    );
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const base = config.publicBaseUrl ?? `http://localhost:${port}`;
  const sweep = setInterval(() => {
    sweepExpiredIdempotencyRecords(db.prisma).catch((err) =>
      logger.warn({ msg: 'idempotency sweep failed', err }),
    );
    sweepExpiredRevocations(db.prisma).catch((err) =>
      logger.warn({ msg: 'store session revocation sweep failed', err }),
    );
  }, SWEEP_EVERY_MS).unref();

  // The banner before the 'listening' line: whoever waits for that line has the key by then.
  if (demo) printWelcome(base, demo.apiKey.key, demo.subBrandId, operator);
  logger.info({
    msg: 'listening',
    url: base,
    database: describe(db, config),
    rate_limits: config.redisUrl ? 'redis' : 'memory',
  });

  const stop = async () => {
    clearInterval(sweep);
    await new Promise<void>((resolve) => {
      server.close(() => resolve()); // stop accepting; finish what is in flight
      server.closeIdleConnections();
    });
    await rateLimits.close();
    await db.close();
  };
  return { server, port, base, stop, db };
}

/** The demo tenant, created when the database has no tenant yet: `npm start` then just works. */
async function demoOnFreshDatabase(prisma: Database['prisma']) {
  const fresh = (await prisma.subBrand.count({ where: { isPlatform: false } })) === 0;
  return fresh ? ensureDemo(prisma) : null;
}

function describe(db: Database, config: Config): string {
  return db.kind === 'pglite'
    ? `embedded PGlite in ${config.dataDir}`
    : 'PostgreSQL (DATABASE_URL)';
}

function printWelcome(
  base: string,
  key: string,
  subBrandId: string,
  operator?: { email: string; password: string } | null,
) {
  process.stdout.write(
    [
      ...(operator
        ? [
            '',
            `Backoffice: ${base}/admin`,
            `  e-mail:   ${operator.email}`,
            `  password: ${operator.password}   (shown once; more staff: npm run admin -- user create …)`,
          ]
        : []),
      '',
      'A demo tenant was created on this fresh database.',
      `  sub-brand: ${subBrandId}`,
      `  test key:  ${key}   (shown once; mint more with: npm run admin -- demo)`,
      '',
      'Try it:',
      `  curl -s ${base}/api/v1/health -H "Authorization: Bearer ${key}"`,
      '',
      `Reference: ${base}/docs   Guide: ${base}/api/v1/guide   GraphQL: ${base}/graphql`,
      '',
    ].join('\n'),
  );
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config, logger);
  let running: Awaited<ReturnType<typeof startServer>>;
  try {
    running = await startServer(config, logger);
  } catch (error) {
    if (error instanceof DataDirBusyError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  let stopping = false;
  const onSignal = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ msg: 'stopping', signal });
    setTimeout(() => {
      logger.error({ msg: 'graceful stop timed out; exiting' });
      process.exit(1);
    }, STOP_GRACE_MS).unref();
    running.stop().then(
      () => process.exit(0),
      (err) => {
        logger.error({ msg: 'error while stopping', err });
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
}

/**
 * WEB_CONCURRENCY > 1: this process only starts workers, which share the port (node:cluster) and
 * hold no state of their own; it migrates first, so workers start on an up-to-date schema, and
 * passes SIGTERM/SIGINT on. Rate limits are per process unless REDIS_URL is set.
 */
async function runPrimary(config: Config, logger: Logger) {
  const db = await openDatabase({ url: config.databaseUrl, poolSize: 1, holder: 'server' });
  if (db.appliedMigrations.length)
    logger.info({ msg: 'migrations applied', migrations: db.appliedMigrations });
  const demo = await demoOnFreshDatabase(db.prisma);
  await db.close();
  if (demo)
    printWelcome(
      config.publicBaseUrl ?? `http://localhost:${config.port}`,
      demo.apiKey.key,
      demo.subBrandId,
    );
  if (!config.redisUrl)
    logger.warn({ msg: 'several workers without REDIS_URL: each counts its own rate budget' });
  for (let i = 0; i < config.workers; i++) cluster.fork();
  let stopping = false;
  cluster.on('exit', (worker, code) => {
    if (stopping) return;
    logger.error({ msg: 'worker exited; starting another', pid: worker.process.pid, code });
    cluster.fork();
  });
  const stop = (signal: string) => {
    stopping = true;
    logger.info({ msg: 'stopping', signal });
    for (const worker of Object.values(cluster.workers ?? {}))
      worker?.process.kill(signal as NodeJS.Signals);
    const wait = setInterval(() => {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        clearInterval(wait);
        process.exit(0);
      }
    }, 100);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  await main();
}
