// The staff audit trail: who changed what, when, with the record before and after. Written in
// the same transaction as the change where the change allows one (schema/staff-audit.ts).
import type { Environment } from '../../generated/prisma/enums.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import { PLATFORM_MARGIN_KEY } from '../catalog/pricing.js';
import { isUuid, newId } from '../ids.js';

export type AuditEntry = {
  staffUserId: string;
  action: string;
  subBrandId: string;
  environment: Environment;
  targetId: string | null;
  args: unknown;
  before: unknown;
  after: unknown;
  requestId: string | null;
};

/** Secrets never reach the trail: a minted key, hashes, session tokens. */
const SECRET_FIELDS = new Set([
  'key',
  'keyHash',
  'passwordHash',
  'password',
  'tokenHash',
  'csrfToken',
  'secret', // a webhook endpoint's signing secret
  'previousSecret',
]);

/** Plain JSON: bigints as numbers, dates as ISO strings, secrets removed. */
export function auditJson(value: unknown): Prisma.InputJsonValue | undefined {
  if (value === undefined || value === null) return undefined;
  const text = JSON.stringify(value, (k, v: unknown) => {
    if (SECRET_FIELDS.has(k)) return '[redacted]';
    return typeof v === 'bigint' ? Number(v) : v;
  });
  return text === undefined ? undefined : (JSON.parse(text) as Prisma.InputJsonValue);
}

export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db.staffAuditEntry.create({
    data: {
      id: newId(),
      staffUserId: entry.staffUserId,
      action: entry.action,
      subBrandId: entry.subBrandId,
      environment: entry.environment,
      targetId: entry.targetId?.slice(0, 80) ?? null,
      args: auditJson(entry.args) ?? {},
      before: auditJson(entry.before) ?? undefined,
      after: auditJson(entry.after) ?? undefined,
      requestId: entry.requestId,
    },
  });
}

type Loader = (db: Db, args: Record<string, unknown>) => Promise<unknown>;
const byId =
  (read: (db: Db, id: string) => Promise<unknown>, arg = 'id'): Loader =>
  (db, args) => {
    const id = String(args[arg] ?? '');
    return isUuid(id) ? read(db, id) : Promise.resolve(null);
  };

/**
 * How to read the record a mutation changes, so the trail holds it before and after. A mutation
 * not listed here is recorded with its arguments and its result as "after".
 */
/** An account as its audit shows it: never its password hash, TOTP secret or codes. */
const staffAccount = byId((db, id) =>
  db.staffUser.findUnique({
    where: { id },
    select: {
      email: true,
      role: true,
      brandId: true,
      subBrandId: true,
      disabledAt: true,
      totpEnabledAt: true,
    },
  }),
);

export const AUDIT_SNAPSHOTS: Record<string, Loader> = {
  changeStaffRole: staffAccount,
  disableStaff: staffAccount,
  enableStaff: staffAccount,
  resetStaffPassword: staffAccount,
  resetStaffTwoFactor: staffAccount,
  setBrandStaffTwoFactor: byId(
    (db, id) =>
      db.brand.findUnique({ where: { id }, select: { id: true, staffTwoFactorRequired: true } }),
    'brandId',
  ),
  adjustCustomerCoins: byId(
    (db, id) => db.wallet.findUnique({ where: { customerId: id }, select: { balance: true } }),
    'customerId',
  ),
  updateCustomer: byId((db, id) => db.customer.findUnique({ where: { id } })),
  deleteCustomer: byId((db, id) => db.customer.findUnique({ where: { id } })),
  moveOrder: byId((db, id) => db.order.findUnique({ where: { id } })),
  cancelOrder: byId((db, id) => db.order.findUnique({ where: { id } })),
  updateOrderShipping: byId((db, id) => db.order.findUnique({ where: { id } })),
  setOrderItemTracking: byId((db, id) => db.orderItem.findUnique({ where: { id } }), 'itemId'),
  revokeApiKey: byId((db, id) => db.apiKey.findUnique({ where: { id } })),
  reviewCatalog: byId((db, id) => db.catalog.findUnique({ where: { id } })),
  updateEventDefinition: byId((db, id) => db.eventDefinition.findUnique({ where: { id } })),
  deactivateEventDefinition: byId((db, id) => db.eventDefinition.findUnique({ where: { id } })),
  updateProduct: byId((db, id) => db.product.findUnique({ where: { id } })),
  updateListing: byId((db, id) => db.listingMarket.findUnique({ where: { id } })),
  updateEstablishment: byId((db, id) => db.subBrand.findUnique({ where: { id } })),
  setJurisdiction: byId(
    (db, id) => db.subBrand.findUnique({ where: { id }, select: { id: true, jurisdiction: true } }),
    'subBrandId',
  ),
  topUpPrepaidBalance: (db, args) => {
    const brandId = String(args.brandId ?? '');
    const environment = args.environment === 'live' ? 'live' : 'test';
    return isUuid(brandId)
      ? db.prepaidAccount.findUnique({ where: { brandId_environment: { brandId, environment } } })
      : Promise.resolve(null);
  },
  setMargins: async (db, args) => {
    const brand = args.brand as { id?: unknown } | null | undefined;
    const subBrand = args.subBrand as { id?: unknown } | null | undefined;
    const brandId = String(brand?.id ?? '');
    const subBrandId = String(subBrand?.id ?? '');
    return {
      platformBps:
        (await db.platformSetting.findUnique({ where: { key: PLATFORM_MARGIN_KEY } }))?.value ?? 0,
      brandBps: isUuid(brandId)
        ? ((await db.brand.findUnique({ where: { id: brandId } }))?.marginBps ?? null)
        : null,
      subBrandBps: isUuid(subBrandId)
        ? ((await db.subBrand.findUnique({ where: { id: subBrandId } }))?.marginBps ?? null)
        : null,
    };
  },
};
