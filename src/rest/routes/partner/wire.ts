// Shared pieces of partner route rows: path ids, and query-string coercion (which the
// establishment rows use too).
import { z } from 'zod';

/** A path id. Malformed ids are answered 404 like unknown ones, not 400. */
export const idParams = z.strictObject({
  id: z.string().min(1).max(64).describe('The record id (UUID).'),
});

/** Query strings are text: integers arrive as "42". Anything else stays text and fails as such. */
export const fromQuery = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => (typeof v === 'string' && /^-?\d{1,16}$/.test(v) ? Number(v) : v), schema);
