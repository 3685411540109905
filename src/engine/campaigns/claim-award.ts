// Claiming an award: once. The award row moves pending → claimed by a guarded UPDATE (a second,
// concurrent claim waits on the row and then finds it claimed); its coins go through the one
// ledger function with the reason `campaign:<award id>`, unique in the database; a product prize
// becomes a zero-coin order in the one order book (so it shows on /api/v1/orders too), with its
// logistics e-mail written to the outbox in the same transaction, as every order path does.
import { assertNotBlocked, refusingWhenBlocked } from '../../domain/responsible-gaming/gate.js';
import { displayName } from '../../domain/catalog/translations.js';
import { enqueueOrderMessage } from '../../domain/notifications/enqueue.js';
import { newReference } from '../../domain/orders/reference.js';
import { z } from 'zod';
import type { CampaignAward } from '../../generated/prisma/client.js';
import { loadPricing, priceListing } from '../../domain/catalog/pricing.js';
import { visibleListings } from '../../domain/catalog/visibility.js';
import type { Db } from '../../domain/db.js';
import { AppError, invalidRequest, notFound } from '../../domain/errors.js';
import { idTime, isUuid, newId } from '../../domain/ids.js';
import { moveCoins } from '../../domain/ledger/move-coins.js';
import { insertOrder } from '../../domain/orders/insert-order.js';
import { movePrepaid } from '../../domain/orders/prepaid.js';
import { takeStock } from '../../domain/orders/stock.js';
import type { Actor, Tenant } from '../../domain/tenant.js';
import { parseInput } from '../../domain/validation.js';
import { grantCredits } from './mini-games.js';
import { GAME_PRIZE } from './schemas.js';
import { EXCLUDED_STATUSES } from './targeting.js';
import { tenantKey } from '../shared/keys.js';
import { recordEvent } from '../../domain/events/record-event.js';

export const claimInput = z.object({
  awardId: z.uuid(),
  recipientName: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Required for a physical product prize.'),
  shippingAddress: z
    .string()
    .min(1)
    .max(1000)
    .optional()
    .describe('Required for a physical product prize.'),
});

export type ClaimResult = {
  award: CampaignAward;
  movementId: string | null;
  balance: number | null;
  orderId: string | null;
};

export async function claimAward(
  db: Db,
  tenant: Tenant,
  actor: Actor,
  customerId: string,
  input: unknown,
  now: Date,
): Promise<ClaimResult> {
  const data = parseInput(claimInput, input);
  if (!isUuid(customerId)) throw notFound('Customer');
  return refusingWhenBlocked(db, tenant, async (tx) => {
    const player = await tx.customer.findFirst({
      where: { id: customerId, ...tenant },
      select: { status: true },
    });
    if (!player) throw notFound('Customer');
    if (EXCLUDED_STATUSES.has(player.status))
      throw new AppError(
        'customer_not_eligible',
        `The player's status is ${player.status}: ${player.status} players receive nothing from campaigns.`,
      );
    const claimed = await tx.$queryRaw<{ id: string }[]>`
      UPDATE campaign_awards SET status = 'claimed', claimed_at = ${now}
      WHERE id = ${data.awardId}::uuid AND customer_id = ${customerId}::uuid
        AND sub_brand_id = ${tenant.subBrandId}::uuid AND environment = ${tenant.environment}::environment
        AND status = 'pending' AND expires_at > ${now}
      RETURNING id`;
    if (!claimed.length) {
      const award = await tx.campaignAward.findFirst({
        where: { id: data.awardId, customerId, ...tenant },
      });
      if (!award) throw notFound('Award');
      if (award.status === 'claimed')
        throw new AppError(
          'award_already_claimed',
          `The award was already claimed at ${award.claimedAt!.toISOString()}.`,
        );
      throw new AppError(
        'award_expired',
        `The award expired at ${award.expiresAt.toISOString()} unclaimed.`,
      );
    }
    // The gate, once the award is known to be claimable: a refusal rolls the claim back.
    await assertNotBlocked(tx, tenant, customerId, 'claim', `award:${data.awardId}`, now);
    const award = await tx.campaignAward.findUniqueOrThrow({
      where: tenantKey(tenant.subBrandId, data.awardId),
    });
    let orderId: string | null = null;
    if (award.productId) orderId = await orderProduct(tx, tenant, actor, award, data, now);
    const game = GAME_PRIZE.exec(award.catalogPrize ?? '');
    if (game && award.quantity > 0)
      await grantCredits(tx, tenant, award.campaignId, customerId, game[1]!, award.quantity);
    let movementId: string | null = null;
    let balance: number | null = null;
    // The wallet lock last, so it is held for the shortest time before the commit.
    if (award.coins > 0n) {
      const moved = await moveCoins(
        tx,
        tenant,
        { customerId, delta: Number(award.coins), reason: `campaign:${award.id}` },
        { ...actor, source: 'campaign' },
      );
      movementId = moved.movementId;
      balance = moved.balanceAfter;
    }
    const done = await tx.campaignAward.update({
      where: tenantKey(award.subBrandId, award.id),
      data: { movementId, orderId },
    });
    await recordEvent(tx, tenant, 'campaign_award.claimed', award.id);
    return { award: done, movementId, balance, orderId };
  });
}

/** The product prize as an order of zero coins: its listing, its stock, its prepaid money. */
async function orderProduct(
  tx: Db,
  tenant: Tenant,
  actor: Actor,
  award: CampaignAward,
  data: z.output<typeof claimInput>,
  now: Date,
): Promise<string> {
  const pricing = await loadPricing(tx, tenant.subBrandId);
  const listing = await tx.listingMarket.findFirst({
    where: { ...visibleListings(tenant.subBrandId, pricing.market), productId: award.productId! },
    include: { variant: { include: { product: true } } },
    orderBy: { id: 'asc' },
  });
  if (!listing) throw notFound('Product');
  const product = listing.variant.product;
  if (product.kind === 'physical' && (!data.recipientName || !data.shippingAddress)) {
    throw invalidRequest(
      [
        !data.recipientName && {
          field: 'recipientName',
          code: 'required' as const,
          message: 'is required for a physical prize',
        },
        !data.shippingAddress && {
          field: 'shippingAddress',
          code: 'required' as const,
          message: 'is required for a physical prize',
        },
      ].filter((i) => i !== false),
    );
  }
  const { sellPrice } = priceListing(listing, pricing);
  const quantity = Math.max(1, award.quantity);
  const id = newId();
  const eventId = newId();
  const name = displayName(product.translations);
  const placed = await insertOrder(tx, tenant, actor, {
    id,
    createdAt: idTime(id),
    customerId: award.customerId,
    billingStatus: pricing.billing.prepaid ? 'reserved' : 'not_applicable',
    currency: pricing.market!.currency,
    totalPrice: sellPrice * quantity,
    totalCoins: 0,
    recipientName: data.recipientName ?? null,
    shippingAddress: data.shippingAddress ?? null,
    reference: newReference(),
    exclusiveProductId: null,
    contactEmail: null,
    requested: Array.from({ length: quantity }, () => listing.id),
    idempotencyKey: null,
    eventId,
    reservationId: newId(),
    // The player's status was checked above; the e-mail is enqueued below.
    refusedStatuses: [],
    message: null,
    lines: [
      {
        id: newId(),
        listingMarketId: listing.id,
        productId: listing.productId,
        variantId: listing.variantId,
        productName: name.slice(0, 200),
        sku: listing.variant.sku,
        attributes: listing.variant.attributes,
        kind: product.kind,
        quantity,
        unitPrice: sellPrice,
        unitCoins: 0,
      },
    ],
  });
  if (!placed) throw notFound('Customer');
  // The order's e-mail (the player's address; none, no e-mail), keyed by the order's creation
  // event: the claim's guarded UPDATE lets one transaction this far, so it is written once.
  await enqueueOrderMessage(tx, id, eventId, 'reserved', now);
  const { short } = await takeStock(tx, tenant.environment, [
    { variantId: listing.variantId, quantity },
  ]);
  if (short.length)
    throw new AppError(
      'out_of_stock',
      `Out of stock: ${listing.variant.sku} (${short[0]!.available} left). The award stays unclaimed.`,
    );
  if (pricing.billing.prepaid) {
    const left = await movePrepaid(
      tx,
      {
        brandId: pricing.billing.brandId,
        environment: tenant.environment,
        currency: pricing.market!.currency,
      },
      -sellPrice * quantity,
      `order:${id}`,
      id,
    );
    if (left === null)
      await tx.order.update({ where: { id }, data: { billingStatus: 'blocked_balance' } });
  }
  return id;
}
