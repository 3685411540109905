import { ensureDemoCatalog } from '../catalog/demo-catalog.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { inTransaction, type Db } from '../db.js';
import { newId } from '../ids.js';
import { createApiKey, type CreatedApiKey } from './create-api-key.js';
import { ALL_KEY_SCOPES } from './inputs.js';

export type Demo = {
  brandId: string;
  subBrandId: string;
  apiKey: CreatedApiKey;
  created: boolean;
  /** The demo's engine event codes, for trying POST /api/v1/engine/events. */
  eventCodes: string[];
};

/** Sample event definitions: a daily login, a first deposit, a spin with a cooldown. */
const DEMO_DEFINITIONS = [
  { code: 'login.daily', points: 10, constraints: { max_daily_per_player: 1 } },
  { code: 'deposit.first', points: 500, constraints: {} },
  { code: 'spin', points: 1, constraints: { cooldown_seconds: 5 }, allowPointsOverride: true },
];

/**
 * Creates the demo tenant on first call and reuses it after; every call mints a fresh test key
 * with every partner scope, since keys are shown only once; seeds the sample catalog.
 */
export async function ensureDemo(db: Db): Promise<Demo> {
  // One caller at a time (two servers starting on a fresh database, `admin demo` beside them): the
  // second waits for the first's commit and then finds the tenant and its catalog made, instead of
  // failing on the one-demo index or seeding the catalog twice.
  return inTransaction(db, async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('partner-rewards:ensure-demo'))`;
    const found = await tx.subBrand.findFirst({ where: { isDemo: true } });
    const subBrand = found ?? (await createDemoTenant(tx));
    const apiKey = await createApiKey(tx, {
      subBrandId: subBrand.id,
      environment: 'test',
      scopes: ALL_KEY_SCOPES,
    });
    await tx.eventDefinition.createMany({
      data: DEMO_DEFINITIONS.map((d) => ({ id: newId(), subBrandId: subBrand.id, ...d })),
      skipDuplicates: true, // a rerun keeps the definitions (and any edits to them)
    });
    await ensureDemoCatalog(tx, {
      id: subBrand.id,
      country: subBrand.country ?? 'ES',
      currency: subBrand.currency,
    });
    return {
      brandId: subBrand.brandId,
      subBrandId: subBrand.id,
      apiKey,
      created: !found,
      eventCodes: DEMO_DEFINITIONS.map((d) => d.code),
    };
  });
}

async function createDemoTenant(tx: Prisma.TransactionClient) {
  const brand = await tx.brand.create({ data: { id: newId(), name: 'Demo Casino Group' } });
  return tx.subBrand.create({
    data: {
      id: newId(),
      brandId: brand.id,
      name: 'Demo Casino',
      country: 'ES',
      currency: 'EUR',
      isDemo: true,
    },
  });
}
