// Starting one server process: the database (migrated), the demo tenant when configured, the
// HTTP app, the admin socket on the embedded database, and the stop that drains them. Loaded by
// server.ts after the configuration is known to be good, so a bad one fails at once.
import cluster from 'node:cluster';
import type { Server } from 'node:http';
import { createApp } from './app.js';
import { serveAdminSocket } from './cli/admin-socket.js';
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { createDemoOperator } from './domain/staff/demo-operator.js';
import { sweepExpiredRevocations } from './domain/store-sessions/store-session.js';
import { startCampaignJobs } from './engine/campaigns/run-campaign-jobs.js';
import { startCoinExpiry } from './domain/wallet/expire-coins.js';
import { startCoinRollups } from './domain/reports/coin-rollups.js';
import { ensureDemoMarketplace } from './player/demo-marketplace.js';
import { ensureDemo } from './domain/tenancy/ensure-demo.js';
import { createRateLimitStore } from './http/rate-limit.js';
import { createHttpServer } from './http/server-options.js';
import type { Logger } from './logger.js';
import { sweepExpiredIdempotencyRecords } from './exactly-once/keyed-requests.js';
import { createDispatcher } from './notifications/dispatcher.js';
import { sweepOldEvents } from './domain/events/retention.js';
import { natsPublisher } from './events/nats.js';
import { createEventWorkers } from './events/service.js';
import { redisPositions } from './db/redis-positions.js';
import { OperationStore } from './rest/execute-operation.js';
import { getSchema } from './schema/index.js';
import { endLiveStreams } from './schema/types/live.js';

const SWEEP_EVERY_MS = 10 * 60 * 1000;

export async function startServer(config: Config, logger: Logger) {
  const db = await openDatabase({
    url: config.databaseUrl,
    readUrl: config.readDatabaseUrl,
    replica: {
      maxWaitMs: config.readMaxWaitMs,
      // Several processes (or machines): a caller's next request may reach another one.
      shared:
        config.readDatabaseUrl && config.redisUrl ? redisPositions(config.redisUrl) : undefined,
    },
    dataDir: config.dataDir,
    poolSize: config.poolSize,
    holder: 'server',
    preparedStatements: config.preparedStatements,
  });
  if (db.appliedMigrations.length)
    logger.info({ msg: 'migrations applied', migrations: db.appliedMigrations });
  // Prisma's client loads its query engine at its first call, ~75 ms of blocked event loop on
  // this machine's kind: now, not inside the first request or campaign pass that uses Prisma
  // (the hot paths do not, so under load that was the campaign job's first pass, 15 s in).
  await db.prisma.$connect();
  // In a cluster the primary made the demo tenant; workers never do.
  const demo = cluster.isWorker || !config.demo ? null : await demoOnFreshDatabase(db.prisma);
  // The demo's player marketplace (its pictures are served by this server).
  if (demo?.created)
    await ensureDemoMarketplace(
      db.prisma,
      demo,
      config.publicBaseUrl ?? `http://localhost:${config.port || 3000}`,
      new Date(),
    );
  // The backoffice's demo operator: embedded database only, never a production one.
  const operator =
    demo?.created && db.kind === 'pglite' ? await createDemoOperator(db.prisma) : null;
  // The embedded database belongs to this process; the admin CLI reaches it through us.
  const adminSocket =
    db.kind === 'pglite' ? await serveAdminSocket(config.dataDir, db.prisma) : null;

  if (config.production && !process.env.FAIRNESS_SEED_KEY)
    logger.warn({
      msg: 'FAIRNESS_SEED_KEY is not set: mini-game plays will refuse (docs/fairness.md)',
    });
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
    demoLinks: !config.production,
    trustProxy: config.trustProxy,
    corsOrigins: config.corsOrigins,
    engine: { claimTimeoutMs: config.engineClaimTimeoutMs },
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = createHttpServer(app)
      .listen(config.port, config.host, () => resolve(s))
      .on('error', reject);
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
    sweepOldEvents(db.prisma, new Date(), config.eventsRetentionDays).catch((err) =>
      logger.warn({ msg: 'event retention sweep failed', err }),
    );
  }, SWEEP_EVERY_MS).unref();
  // Campaign completion, award expiry and tournament settlement (docs/campaigns.md).
  const campaignJobs = startCampaignJobs(db.prisma, {
    onError: (err) => logger.warn({ msg: 'campaign job failed', err }),
  });
  // Coin expiry: lots written off, expiring notices, holds closed (docs/expiry-and-holds.md).
  const coinExpiry = startCoinExpiry(db.prisma, {
    onError: (err) => logger.warn({ msg: 'coin expiry job failed', err }),
  });
  // Reports: the ledger's new movements folded into hourly rollups (docs/reports.md).
  const coinRollups = startCoinRollups(db.prisma, {
    onError: (err) => logger.warn({ msg: 'coin report rollup failed', err }),
  });

  // Logistics e-mails: every process dispatches (claims are SKIP LOCKED); without SMTP_URL they
  // wait in the outbox, visible in backoffice GraphQL (`notifications`).
  const dispatcher = config.smtpUrl
    ? createDispatcher({
        db: db.prisma,
        logger,
        smtpUrl: config.smtpUrl,
        from: config.smtpFrom,
        smtpTimeoutMs: config.smtpTimeoutMs,
        baseUrl: base,
      })
    : null;
  dispatcher?.start();
  if (!dispatcher) logger.info({ msg: 'SMTP_URL unset: logistics e-mails stay in the outbox' });

  // Outbound events: the relay, the NATS stream and the webhook sender (docs/webhooks.md).
  const nats = config.eventsNatsUrl
    ? natsPublisher(config.eventsNatsUrl, config.eventsRetentionDays)
    : null;
  const events = createEventWorkers({
    prisma: db.prisma,
    logger,
    nats,
    operations: new OperationStore(getSchema()),
    now: () => new Date(),
    engine: { claimTimeoutMs: config.engineClaimTimeoutMs },
    baseUrl: base,
  });
  events.start();

  // The banner before the 'listening' line: whoever waits for that line has the key by then.
  if (demo) welcome(config, logger, base, demo, operator);
  logger.info({
    msg: 'listening',
    url: base,
    database: describe(db, config),
    rate_limits: config.redisUrl ? 'redis' : 'memory',
  });
  logger.flush(); // lines are gathered (logger.ts); whoever waits for this one sees it now

  const stop = async () => {
    clearInterval(sweep);
    await campaignJobs.stop();
    await coinExpiry.stop();
    await coinRollups.stop();
    endLiveStreams(); // the backoffice's live screens reconnect to another process
    await new Promise<void>((resolve) => {
      server.close(() => resolve()); // stop accepting; finish what is in flight
      server.closeIdleConnections();
    });
    await dispatcher?.stop();
    await events.stop();
    await nats?.close();
    await rateLimits.close();
    await adminSocket?.close();
    await db.close();
  };
  return { server, port, base, stop, db };
}

/** The demo tenant, created when the database has no tenant yet: `npm start` then just works. */
export async function demoOnFreshDatabase(prisma: Database['prisma']) {
  const fresh = (await prisma.subBrand.count({ where: { isPlatform: false } })) === 0;
  return fresh ? ensureDemo(prisma) : null;
}

function describe(db: Database, config: Config): string {
  return db.kind === 'pglite'
    ? `embedded PGlite in ${config.dataDir}`
    : 'PostgreSQL (DATABASE_URL)';
}

/**
 * The demo's key is for the person at the terminal of a development start. In production
 * (NODE_ENV=production, e.g. DEMO=1 on a staging PostgreSQL) stdout is a log stream, and secrets
 * never go to logs: the tenant is created, and the log says how to mint a key.
 */
export function welcome(
  config: Config,
  logger: Logger,
  base: string,
  demo: { subBrandId: string; apiKey: { key: string } },
  operator?: Operator | null,
) {
  if (!config.production) return printWelcome(base, demo.apiKey.key, demo.subBrandId, operator);
  logger.info({
    msg: 'demo tenant created; mint a key for it with `npm run admin -- demo`',
    sub_brand_id: demo.subBrandId,
    ...(operator ? { demo_operator: operator.email } : {}), // never its password
  });
}

type Operator = { email: string; password: string };

function printWelcome(base: string, key: string, subBrandId: string, operator?: Operator | null) {
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
      `Player marketplace (the demo player, Ana): ${base}/marketplace/demo`,
      `  the second establishment's:               ${base}/marketplace/demo?establishment=2`,
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
