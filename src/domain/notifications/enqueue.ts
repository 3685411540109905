// Writes an order event's logistics e-mail to the outbox, in the transaction that made the event:
// the message exists if and only if the change committed. One message per event (a unique key on
// (sub_brand_id, event_id)); the dispatcher sends it later (src/notifications/dispatcher.ts).
import { sqlFor } from '../../db/sql.js';
import type { Db } from '../db.js';
import { newId } from '../ids.js';
import { trackPath, trackToken } from '../orders/track-token.js';
import { render, templateLanguage, type TemplateName } from './templates.js';

type Translations = Record<string, { name?: string } | undefined>;

/** What a message is made of: the order, its establishment and its first line's product. */
export type MessageFacts = {
  orderId: string;
  reference: string | null;
  establishment: string;
  /** The establishment's locale: the message's language where templates exist for it. */
  locale: string;
  /** The first line's name as ordered, and that product's translations (null: no line). */
  productName: string | null;
  translations: unknown;
  itemCount: number;
};

export type Extra = { trackingNumber?: string; refunded?: number };

/** A message rendered and ready to store; `recipient` is the caller's to find. */
export async function composeOrderMessage(
  db: Db,
  facts: MessageFacts,
  template: TemplateName,
  extra: Extra = {},
) {
  const language = templateLanguage(facts.locale);
  // The first line's product named in the player's language where it has that translation.
  const name = (facts.translations as Translations | null)?.[language]?.name;
  let product = name || (facts.productName ?? '');
  if (facts.itemCount > 1) product = `${product} (+${facts.itemCount - 1})`;
  const message = render(
    template,
    language,
    {
      establishment: facts.establishment,
      product,
      reference: facts.reference ?? facts.orderId,
      ...extra,
    },
    trackPath(await trackToken(db, facts.orderId)),
  );
  return { id: newId(), template, ...message };
}

export type ComposedMessage = Awaited<ReturnType<typeof composeOrderMessage>>;

export async function enqueueOrderMessage(
  tx: Db,
  orderId: string,
  eventId: string,
  template: TemplateName,
  now: Date,
  extra: Extra = {},
): Promise<void> {
  // One statement on the driver (every order event sends it): the order, its addressee, its
  // establishment, its first line with that product's names, and its line count.
  const {
    rows: [order],
  } = await sqlFor(tx).query<FactsRow>(
    `SELECT o.id, o.sub_brand_id, o.environment, o.reference,
            coalesce(o.delivery_email, o.contact_email, c.email) AS recipient,
            sb.name AS establishment, sb.locale,
            first.product_name, p.translations,
            (SELECT count(*) FROM order_items i WHERE i.order_id = o.id)::int AS item_count
     FROM orders o
     JOIN sub_brands sb ON sb.id = o.sub_brand_id
     LEFT JOIN customers c ON c.id = o.customer_id
     LEFT JOIN LATERAL (SELECT i.product_id, i.product_name FROM order_items i
                        WHERE i.order_id = o.id ORDER BY i.position LIMIT 1) first ON true
     LEFT JOIN products p ON p.id = first.product_id
     WHERE o.id = $1::uuid`,
    [orderId],
  );
  if (!order) throw new Error(`enqueueOrderMessage: no order ${orderId}`);
  // No address, no e-mail: the tracking page still shows the change.
  const recipient = order.recipient;
  if (!recipient) return;
  const message = await composeOrderMessage(
    tx,
    {
      orderId: order.id,
      reference: order.reference,
      establishment: order.establishment,
      locale: order.locale,
      productName: order.product_name,
      translations: order.translations,
      itemCount: order.item_count,
    },
    template,
    extra,
  );
  await sqlFor(tx).query(
    `INSERT INTO notifications (id, sub_brand_id, environment, order_id, event_id, template, recipient,
                                subject, html, text, next_attempt_at, created_at)
     VALUES ($1::uuid, $2::uuid, $3::environment, $4::uuid, $5::uuid, $6, $7, $8, $9, $10,
             $11::timestamptz, $11::timestamptz)`,
    [
      message.id,
      order.sub_brand_id,
      order.environment,
      order.id,
      eventId,
      template,
      recipient,
      message.subject,
      message.html,
      message.text,
      now.toISOString(),
    ],
  );
}

type FactsRow = {
  id: string;
  sub_brand_id: string;
  environment: string;
  reference: string | null;
  recipient: string | null;
  establishment: string;
  locale: string;
  product_name: string | null;
  translations: unknown;
  item_count: number;
};
