// A cohort reward: the same signed delta for every customer matching a filter.
//
// It advances in batches of BATCH_SIZE customers, each batch its own transaction (so a large
// cohort never holds every wallet lock at once), through the one ledger function. A debit that
// would take one balance below zero skips that customer and is reported; it never stops the
// cohort. The adjustment row records how far it got: a retry with the same Idempotency-Key
// resumes there, and the unique (bulk_id, customer_id) on movements keeps it exactly once per
// customer, even if two retries run at once.
import { z } from 'zod';
import { customerWhere } from '../customers/customer-where.js';
import { customerFilter } from '../customers/schemas.js';
import { inTransaction, type Db } from '../db.js';
import { keyClaim } from '../../exactly-once/claim-key.js';
import { AppError, invalidRequest } from '../errors.js';
import { isUuid, newId } from '../ids.js';
import { valueFingerprint } from '../fingerprint.js';
import { applyMovements } from '../ledger/apply-movements.js';
import { coinAmount, MAX_COINS, movementReason } from '../ledger/coins.js';
import type { Actor, Tenant } from '../tenant.js';
import { parseInput } from '../validation.js';
import type { Prisma, PrismaClient } from '../../generated/prisma/client.js';
import type { RgState } from '../../generated/prisma/enums.js';
import { blockOf, recordRgDecision, rgActiveWhere } from '../responsible-gaming/gate.js';

export const BATCH_SIZE = 500;
const SKIPPED_LISTED = 100;

export const bulkAdjustInput = z.strictObject({
  filter: customerFilter.default({}),
  delta: coinAmount.refine((d) => d !== 0, 'must not be 0'),
  reason: movementReason.nullish(),
  dryRun: z.boolean().default(false),
});

export type BulkResult = {
  id: string | null;
  dryRun: boolean;
  /** Customers in the cohort. */
  matched: number;
  /** Customers whose balance moved (would move, in a dry run). */
  applied: number;
  /** Customers skipped because the debit would take them below zero. */
  skipped: number;
  /** Customers a credit left out: an active responsible-gaming state (docs/compliance.md). */
  rgBlocked: number;
  skippedCustomerIds: string[];
  delta: number;
  /** applied × delta. */
  totalDelta: number;
  completedAt: Date | null;
};

export async function bulkAdjustCoins(
  prisma: PrismaClient,
  tenant: Tenant,
  actor: Actor,
  idempotencyKey: string,
  input: z.input<typeof bulkAdjustInput>,
  /** Tests set a small batch and inject a crash after a batch commits. */
  options: { batchSize?: number; afterBatch?: (batch: number) => void | Promise<void> } = {},
): Promise<BulkResult> {
  let batches = 0;
  const data = parseInput(bulkAdjustInput, input);
  if (data.dryRun) return preview(prisma, tenant, data);

  const job = await findOrStart(prisma, tenant, data, idempotencyKey, valueFingerprint(data));
  while (!job.completedAt) {
    const done = await inTransaction(prisma, async (tx) => {
      // The row lock serializes batches of the same adjustment (a retry racing the first run).
      const [current] = await tx.$queryRaw<{ cursor: string | null; completed_at: Date | null }[]>`
        SELECT cursor, completed_at FROM bulk_adjustments WHERE id = ${job.id}::uuid FOR UPDATE`;
      if (current!.completed_at) return true;
      const batch = await tx.customer.findMany({
        where: {
          AND: [
            customerWhere(tenant, data.filter),
            { id: { lte: job.cohortMaxId ?? undefined, gt: current!.cursor ?? undefined } },
          ],
        },
        orderBy: { id: 'asc' },
        take: options.batchSize ?? BATCH_SIZE,
        select: { id: true },
      });
      if (batch.length === 0 || job.cohortMaxId === null) {
        await tx.bulkAdjustment.update({
          where: { id: job.id },
          data: { completedAt: new Date() },
        });
        return true;
      }
      // A credit is an incentive: the gate leaves blocked customers out, one decision each.
      const blocked = data.delta > 0 ? await blockedAmong(tx, tenant, batch, job.id) : new Set();
      const { applied, refused } = await applyMovements(
        tx,
        tenant,
        batch
          .filter((c) => !blocked.has(c.id))
          .map((c) => ({ customerId: c.id, delta: data.delta, reason: data.reason ?? null })),
        { ...actor, source: 'bulk', bulkId: job.id },
      );
      const skipped = refused.filter((r) => r.refusal !== 'not_found').map((r) => r.customerId); // not_found: deleted meanwhile
      await tx.$executeRaw`
        UPDATE bulk_adjustments SET cursor = ${batch.at(-1)!.id}::uuid,
          matched = matched + ${applied.length + skipped.length + blocked.size},
          applied = applied + ${applied.length},
          skipped = skipped + ${skipped.length}, rg_blocked = rg_blocked + ${blocked.size},
          skipped_ids = (coalesce(skipped_ids, '{}') || ${skipped}::uuid[])[1:${SKIPPED_LISTED}]
        WHERE id = ${job.id}::uuid`;
      return false;
    });
    if (done) break;
    await options.afterBatch?.(++batches);
  }
  return result(await prisma.bulkAdjustment.findUniqueOrThrow({ where: { id: job.id } }));
}

/** The batch's customers the gate blocks, their rows locked FOR SHARE; each refusal recorded. */
async function blockedAmong(
  tx: Prisma.TransactionClient,
  tenant: Tenant,
  batch: { id: string }[],
  bulkId: string,
): Promise<Set<string>> {
  const rows = await tx.$queryRaw<{ id: string; rg_state: RgState; rg_until: Date | null }[]>`
    SELECT id, rg_state, rg_until FROM customers
    WHERE sub_brand_id = ${tenant.subBrandId}::uuid AND id = ANY(${batch.map((c) => c.id)}::uuid[])
    ORDER BY id FOR SHARE`;
  const now = new Date();
  const blocked = new Set<string>();
  for (const row of rows) {
    const block = blockOf(row, now);
    if (!block) continue;
    blocked.add(row.id);
    await recordRgDecision(tx, tenant, row.id, 'bulk_credit', block, `bulk:${bulkId}`, now);
  }
  return blocked;
}

/** The run, once per idempotency key; a repeat resumes it (test/db/keyed-stores.test.ts races it). */
export const claimRun = keyClaim(
  'bulkRun',
  [
    'id::uuid',
    'sub_brand_id::uuid',
    'environment::environment',
    'idempotency_key',
    'request_hash',
    'filter::jsonb',
    'delta::bigint',
    'reason',
    'cohort_max_id::uuid',
  ],
  { skipped_ids: "'{}'" },
);

async function findOrStart(
  prisma: PrismaClient,
  tenant: Tenant,
  data: z.output<typeof bulkAdjustInput>,
  key: string,
  requestHash: string,
) {
  const existing = () =>
    prisma.bulkAdjustment.findUnique({
      where: { subBrandId_environment_idempotencyKey: { ...tenant, idempotencyKey: key } },
    });
  let job = await existing();
  if (!job) {
    // Refused before the first coin moves: the answer must be computable when it is done.
    await assertTotalFits(prisma, tenant, data);
    // The cohort: customers matching the filter now, up to the newest one that exists now.
    const newest = await prisma.customer.findFirst({
      where: customerWhere(tenant),
      orderBy: { id: 'desc' },
      select: { id: true },
    });
    // A concurrent first run that claimed the key before this one is joined: its row is read.
    await claimRun(prisma, [
      newId(),
      tenant.subBrandId,
      tenant.environment,
      key,
      requestHash,
      JSON.stringify(data.filter),
      data.delta,
      data.reason ?? null,
      newest?.id ?? null,
    ]);
    job = await existing();
  }
  if (job!.requestHash !== requestHash) {
    throw new AppError(
      'idempotency_conflict',
      'This Idempotency-Key was already used with a different cohort adjustment.',
    );
  }
  return job!;
}

/** A bulk adjustment of the tenant by id, as it stands (running or completed); null if none. */
export async function readBulkAdjustment(
  prisma: Db,
  tenant: Tenant,
  id: string,
): Promise<BulkResult | null> {
  const job = isUuid(id)
    ? await prisma.bulkAdjustment.findFirst({ where: { id, ...tenant } })
    : null;
  return job && result(job);
}

function result(job: {
  id: string;
  matched: number;
  applied: number;
  skipped: number;
  rgBlocked: number;
  skippedIds: string[];
  delta: bigint;
  completedAt: Date | null;
}): BulkResult {
  const delta = Number(job.delta);
  return {
    id: job.id,
    dryRun: false,
    matched: job.matched,
    applied: job.applied,
    skipped: job.skipped,
    rgBlocked: job.rgBlocked,
    skippedCustomerIds: job.skippedIds,
    delta,
    totalDelta: job.applied * delta,
    completedAt: job.completedAt,
  };
}

/**
 * The answer's total (applied × delta) is a JSON number, exact only within ±(2^53 - 1): a cohort
 * whose total could exceed it is refused, naming delta, before anything moves (a dry run the
 * same, so that it predicts the real call). Returns the cohort's size.
 */
async function assertTotalFits(
  prisma: PrismaClient,
  tenant: Tenant,
  data: z.output<typeof bulkAdjustInput>,
): Promise<number> {
  const matched = await prisma.customer.count({ where: customerWhere(tenant, data.filter) });
  if (matched * Math.abs(data.delta) > MAX_COINS) {
    throw invalidRequest([
      {
        field: 'delta',
        code: 'too_big',
        message: `${data.delta} for each of the ${matched} customers in the cohort would total more than ${MAX_COINS} coins; lower it or narrow the filter`,
      },
    ]);
  }
  return matched;
}

/** The cohort's size and cost, moving nothing, so an operator can preview a reward. */
async function preview(
  prisma: PrismaClient,
  tenant: Tenant,
  data: z.output<typeof bulkAdjustInput>,
): Promise<BulkResult> {
  const where = customerWhere(tenant, data.filter);
  const matched = await assertTotalFits(prisma, tenant, data);
  const skippedRows =
    data.delta < 0
      ? await prisma.customer.findMany({
          where: { AND: [where, { wallet: { balance: { lt: BigInt(-data.delta) } } }] },
          select: { id: true },
          orderBy: { id: 'asc' },
          take: SKIPPED_LISTED,
        })
      : [];
  const skipped =
    data.delta < 0
      ? await prisma.customer.count({
          where: { AND: [where, { wallet: { balance: { lt: BigInt(-data.delta) } } }] },
        })
      : 0;
  const rgBlocked =
    data.delta > 0
      ? await prisma.customer.count({ where: { AND: [where, rgActiveWhere(new Date())] } })
      : 0;
  const applied = matched - skipped - rgBlocked;
  return {
    id: null,
    dryRun: true,
    matched,
    applied,
    skipped,
    rgBlocked,
    skippedCustomerIds: skippedRows.map((r) => r.id),
    delta: data.delta,
    totalDelta: applied * data.delta,
    completedAt: null,
  };
}
