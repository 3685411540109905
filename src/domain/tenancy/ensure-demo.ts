import { ensureDemoCatalog } from '../catalog/demo-catalog.js';
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
  let subBrand = await db.subBrand.findFirst({ where: { isDemo: true } });
  const created = !subBrand;
  subBrand ??= await inTransaction(db, async (tx) => {
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
  });
  const apiKey = await createApiKey(db, {
    subBrandId: subBrand.id,
    environment: 'test',
    scopes: ALL_KEY_SCOPES,
  });
  await db.eventDefinition.createMany({
    data: DEMO_DEFINITIONS.map((d) => ({ id: newId(), subBrandId: subBrand.id, ...d })),
    skipDuplicates: true, // a rerun keeps the definitions (and any edits to them)
  });
  await ensureDemoCatalog(db, {
    id: subBrand.id,
    country: subBrand.country ?? 'ES',
    currency: subBrand.currency,
  });
  return {
    brandId: subBrand.brandId,
    subBrandId: subBrand.id,
    apiKey,
    created,
    eventCodes: DEMO_DEFINITIONS.map((d) => d.code),
  };
}
