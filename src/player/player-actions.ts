// What a player does in the marketplace, on the one order book, ledger and campaign engine: a
// redemption is a reservation (reserve-order.ts), a cancellation the order book's, a claim the
// campaigns' (claim-award.ts). The player is always the session's customer: no id a caller sends
// can name another. A physical prize needs an address, saved or given (and saved when asked).
import { refusingWhenBlocked } from '../domain/responsible-gaming/gate.js';
import { z } from 'zod';
import { orderableListings } from '../domain/catalog/orderable-listings.js';
import { loadPricing } from '../domain/catalog/pricing.js';
import { claimAward } from '../engine/campaigns/claim-award.js';
import { inTransaction, type Db } from '../domain/db.js';
import { invalidRequest, notFound } from '../domain/errors.js';
import { cancelOrder } from '../domain/orders/cancel-order.js';
import { lockOrder } from '../domain/orders/lock-order.js';
import { reserveOrder } from '../domain/orders/reserve-order.js';
import type { Actor, Tenant } from '../domain/tenant.js';
import { parseInput } from '../domain/validation.js';
import {
  addressInput,
  findAddress,
  orderDelivery,
  saveAddress,
  type Address,
} from './addresses.js';

const deliveryChoice = {
  addressId: z.uuid().optional().describe('A saved address of the player.'),
  address: addressInput.optional().describe('A new address.'),
  saveAddress: z.boolean().optional().describe('Keep the new address for next time.'),
};

export const redeemInput = z.strictObject({ listingId: z.uuid(), ...deliveryChoice });
export const claimInput = z.strictObject({ awardId: z.uuid(), ...deliveryChoice });

type Delivery = Pick<z.output<typeof redeemInput>, 'addressId' | 'address' | 'saveAddress'>;

/** The address a request names: a saved one, or the one it gives (saved when asked). */
async function deliveryOf(
  tx: Db,
  tenant: Tenant,
  customerId: string,
  choice: Delivery,
): Promise<Omit<Address, 'id'> | null> {
  if (choice.addressId && choice.address)
    throw invalidRequest([
      { field: 'address', code: 'conflict', message: 'give addressId or address, not both' },
    ]);
  if (choice.addressId) return findAddress(tx, tenant, customerId, choice.addressId);
  if (!choice.address) return null;
  if (choice.saveAddress) await saveAddress(tx, tenant, customerId, choice.address);
  return choice.address;
}

const addressRequired = () =>
  invalidRequest([
    { field: 'address', code: 'required', message: 'is required to deliver a physical prize' },
  ]);

/** Redeems one unit of a listing for the player: coins spent, stock taken, in one transaction. */
export async function redeemPrize(
  db: Db,
  tenant: Tenant,
  actor: Actor,
  customerId: string,
  input: unknown,
  idempotencyKey: string | null,
  now: Date,
): Promise<{ orderId: string }> {
  const data = parseInput(redeemInput, input);
  return inTransaction(db, async (tx) => {
    const pricing = await loadPricing(tx, tenant.subBrandId);
    const listings = await orderableListings(tx, tenant.subBrandId, pricing.market, {
      ids: [data.listingId],
    });
    if (!listings.length) throw notFound('Prize');
    const physical = listings[0]!.variant.product.kind === 'physical';
    const address = physical ? await deliveryOf(tx, tenant, customerId, data) : null;
    if (physical && !address) throw addressRequired();
    const order = await reserveOrder(
      tx,
      tenant,
      actor,
      {
        customerId,
        listingMarketId: data.listingId,
        ...(address ? orderDelivery(address) : {}),
      },
      { idempotencyKey, pricing, listings },
    );
    if (address) {
      // The structured details too, as the establishment's send keeps them.
      await tx.order.update({
        where: { id: order.id },
        data: {
          deliveryFirstName: address.firstName,
          deliveryLastName: address.lastName,
          deliveryAddressLine1: address.addressLine1,
          deliveryAddressLine2: address.addressLine2 ?? null,
          deliveryCity: address.city,
          deliveryProvince: address.province ?? null,
          deliveryCountry: address.country,
          deliveryPostalCode: address.postalCode,
          deliveryCapturedAt: now,
        },
      });
    }
    return { orderId: order.id };
  });
}

/** Cancels one of the player's orders before it ships: coins refunded once, stock given back. */
export async function cancelPlayerOrder(
  db: Db,
  tenant: Tenant,
  actor: Actor,
  customerId: string,
  orderId: string,
  now: Date,
) {
  return inTransaction(db, async (tx) => {
    const order = await lockOrder(tx, orderId, tenant);
    if (order.customerId !== customerId) throw notFound('Order');
    return cancelOrder(tx, tenant, actor, orderId, now);
  });
}

/** Claims one of the player's awards; a physical product prize needs an address. */
export async function claimPlayerAward(
  db: Db,
  tenant: Tenant,
  actor: Actor,
  customerId: string,
  input: unknown,
  now: Date,
) {
  const data = parseInput(claimInput, input);
  // The gate's refusal inside claimAward rolls this transaction back: its decision row is written after.
  return refusingWhenBlocked(db, tenant, async (tx) => {
    const address = await deliveryOf(tx, tenant, customerId, data);
    return claimAward(
      tx,
      tenant,
      actor,
      customerId,
      { awardId: data.awardId, ...(address ? orderDelivery(address) : {}) },
      now,
    );
  });
}
