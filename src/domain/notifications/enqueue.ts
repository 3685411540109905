// Writes an order event's logistics e-mail to the outbox, in the transaction that made the event:
// the message exists if and only if the change committed. One message per event (a unique key on
// (sub_brand_id, event_id)); the dispatcher sends it later (src/notifications/dispatcher.ts).
import type { Db } from '../db.js';
import { newId } from '../ids.js';
import { trackPath, trackToken } from '../orders/track-token.js';
import { render, templateLanguage, type TemplateName } from './templates.js';

type Translations = Record<string, { name?: string } | undefined>;

export async function enqueueOrderMessage(
  tx: Db,
  orderId: string,
  eventId: string,
  template: TemplateName,
  now: Date,
  extra: { trackingNumber?: string; refunded?: number } = {},
): Promise<void> {
  const order = await tx.order.findUniqueOrThrow({
    where: { id: orderId },
    select: {
      id: true,
      subBrandId: true,
      environment: true,
      reference: true,
      contactEmail: true,
      deliveryEmail: true,
      customer: { select: { email: true } },
      subBrand: { select: { name: true, locale: true } },
      items: { select: { productId: true, productName: true }, orderBy: { position: 'asc' } },
    },
  });
  const recipient = order.deliveryEmail ?? order.contactEmail ?? order.customer?.email ?? null;
  // No address, no e-mail: the tracking page still shows the change.
  if (!recipient) return;
  const language = templateLanguage(order.subBrand.locale);
  const first = order.items[0];
  let product = first?.productName ?? '';
  if (first) {
    const found = await tx.product.findUnique({
      where: { id: first.productId },
      select: { translations: true },
    });
    const name = (found?.translations as Translations | undefined)?.[language]?.name;
    if (name) product = name;
  }
  if (order.items.length > 1) product = `${product} (+${order.items.length - 1})`;
  const message = render(
    template,
    language,
    {
      establishment: order.subBrand.name,
      product,
      reference: order.reference ?? order.id,
      ...extra,
    },
    trackPath(await trackToken(tx, order.id)),
  );
  await tx.notification.create({
    data: {
      id: newId(),
      subBrandId: order.subBrandId,
      environment: order.environment,
      orderId: order.id,
      eventId,
      template,
      recipient,
      ...message,
      nextAttemptAt: now,
      createdAt: now,
    },
  });
}
