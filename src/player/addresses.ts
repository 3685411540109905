// A player's saved delivery addresses ("address management" in the establishment document): up
// to MAX_ADDRESSES, chosen when a physical prize is redeemed or claimed. Buyer-supplied text,
// stored and shown as data. Another player's address is simply not found.
import { z } from 'zod';
import { countryCode } from '../domain/countries.js';
import type { Db } from '../domain/db.js';
import { AppError, notFound } from '../domain/errors.js';
import { isUuid, newId } from '../domain/ids.js';
import type { Tenant } from '../domain/tenant.js';
import { nonBlankText, parseInput } from '../domain/validation.js';

export const MAX_ADDRESSES = 10;

export const addressInput = z.strictObject({
  firstName: nonBlankText(100),
  lastName: nonBlankText(100),
  addressLine1: nonBlankText(300),
  addressLine2: nonBlankText(300).nullish(),
  city: nonBlankText(120),
  province: nonBlankText(120).nullish(),
  postalCode: nonBlankText(32),
  country: countryCode,
  phone: nonBlankText(40).nullish(),
});
export type AddressInput = z.input<typeof addressInput>;
export type Address = z.output<typeof addressInput> & { id: string };

const SELECT = {
  id: true,
  firstName: true,
  lastName: true,
  addressLine1: true,
  addressLine2: true,
  city: true,
  province: true,
  postalCode: true,
  country: true,
  phone: true,
} as const;

export const listAddresses = (db: Db, tenant: Tenant, customerId: string) =>
  db.customerAddress.findMany({
    where: { subBrandId: tenant.subBrandId, customerId },
    select: SELECT,
    orderBy: { id: 'asc' },
  });

export async function findAddress(db: Db, tenant: Tenant, customerId: string, id: string) {
  const address = isUuid(id)
    ? await db.customerAddress.findFirst({
        where: { id, subBrandId: tenant.subBrandId, customerId },
        select: SELECT,
      })
    : null;
  if (!address) throw notFound('Address');
  return address;
}

export async function saveAddress(db: Db, tenant: Tenant, customerId: string, input: unknown) {
  const data = parseInput(addressInput, input);
  const count = await db.customerAddress.count({
    where: { subBrandId: tenant.subBrandId, customerId },
  });
  if (count >= MAX_ADDRESSES)
    throw new AppError(
      'conflict',
      `A player keeps at most ${MAX_ADDRESSES} addresses: delete one before saving another.`,
    );
  return db.customerAddress.create({
    data: { id: newId(), subBrandId: tenant.subBrandId, customerId, ...data },
    select: SELECT,
  });
}

export async function deleteAddress(db: Db, tenant: Tenant, customerId: string, id: string) {
  const address = await findAddress(db, tenant, customerId, id);
  await db.customerAddress.deleteMany({
    where: { id: address.id, subBrandId: tenant.subBrandId, customerId },
  });
  return address;
}

/** The two free-text fields of an order, from a structured address. */
export const orderDelivery = (a: z.output<typeof addressInput>) => ({
  recipientName: `${a.firstName} ${a.lastName}`,
  shippingAddress: [
    a.addressLine1,
    a.addressLine2,
    [a.postalCode, a.city].join(' '),
    a.province,
    a.country,
  ]
    .filter(Boolean)
    .join(', '),
});
