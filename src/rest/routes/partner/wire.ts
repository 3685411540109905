// Shared pieces of partner route rows: path ids, and query-string coercion (which the
// establishment rows use too).
import { z } from 'zod';

/**
 * A path id, described as the record it names and where that id comes from (an agent holding a
 * customer has its `id` and its `external_id`; only one is right). Malformed ids are answered 404
 * like unknown ones, not 400.
 */
export const idOf = (description: string) =>
  z.strictObject({ id: z.string().min(1).max(64).describe(description) });

export const customerId = idOf(
  "The customer's `id` (a UUID from list_customers or create_customer), not its external_id.",
);
export const orderId = idOf("The order's `id` (a UUID from reserve_order or list_orders).");

/**
 * Query strings are text: integers arrive as "42". Anything else stays text and fails as such.
 * A default goes inside (`fromQuery(x.default(10))`): put around it, zod's JSON Schema of the
 * request leaves it out, and the OpenAPI document would not show it.
 */
export const fromQuery = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => (typeof v === 'string' && /^-?\d{1,16}$/.test(v) ? Number(v) : v), schema);
