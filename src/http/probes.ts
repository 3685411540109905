// Probes for orchestrators and load balancers, without a key and outside the rate budget:
// GET /healthz — the process answers (liveness: restart me if this fails);
// GET /readyz  — it can serve (readiness: send me traffic): the database answers, its schema is
// the code's, and Redis answers when REDIS_URL is set. 503 with the failing check otherwise.
import { Router } from 'express';
import { PROJECT_ROOT } from '../db/database.js';
import { pendingMigrations } from '../db/migration-status.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { RateLimitStore } from './rate-limit.js';

const CHECK_TIMEOUT_MS = 2000;

type Check = { status: 'ok' | 'failing' | 'not_configured'; detail?: string };

const withTimeout = <T>(work: Promise<T>, what: string): Promise<T> =>
  Promise.race([
    work,
    new Promise<T>((_, reject) =>
      setTimeout(
        () => reject(new Error(`${what} did not answer in ${CHECK_TIMEOUT_MS} ms`)),
        CHECK_TIMEOUT_MS,
      ).unref(),
    ),
  ]);

export function probesRouter(deps: { prisma: PrismaClient; rateLimits: RateLimitStore }): Router {
  const router = Router();
  const query = (sql: string) =>
    deps.prisma.$queryRawUnsafe<unknown[]>(sql).then((rows) => ({ rows }));

  router.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));

  router.get('/readyz', async (_req, res) => {
    const checks: Record<'database' | 'migrations' | 'redis', Check> = {
      database: { status: 'ok' },
      migrations: { status: 'ok' },
      redis: { status: 'not_configured' },
    };
    try {
      const pending = await withTimeout(pendingMigrations(query, PROJECT_ROOT), 'the database');
      if (pending.length)
        checks.migrations = { status: 'failing', detail: `not applied: ${pending.join(', ')}` };
    } catch (error) {
      checks.database = { status: 'failing', detail: (error as Error).message };
      checks.migrations = { status: 'failing', detail: 'unknown while the database is down' };
    }
    if (deps.rateLimits.kind === 'redis')
      checks.redis = (await deps.rateLimits.ready(CHECK_TIMEOUT_MS))
        ? { status: 'ok' }
        : { status: 'failing', detail: 'Redis is not reachable' };
    const ready = Object.values(checks).every((c) => c.status !== 'failing');
    res
      .status(ready ? 200 : 503)
      .set('cache-control', 'no-store')
      .json({ status: ready ? 'ready' : 'not_ready', checks });
  });
  return router;
}
