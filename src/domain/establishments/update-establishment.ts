import type { z } from 'zod';
import type { Db } from '../db.js';
import { AppError, notFound } from '../errors.js';
import { isUuid } from '../ids.js';
import { parseInput } from '../validation.js';
import { COMMERCIAL_FIELDS, updateEstablishmentInput, type Style } from './schemas.js';

/**
 * Replaces the establishment's profile. `admin`: the caller is a platform admin, who alone may
 * change the commercial fields; others may re-send their current values (a PUT re-sends the
 * whole object), and are refused naming the field when a value differs.
 */
export async function updateEstablishment(
  db: Db,
  id: string,
  input: z.input<typeof updateEstablishmentInput>,
  options: { admin: boolean },
) {
  const data = parseInput(updateEstablishmentInput, input);
  const current = isUuid(id) ? await db.subBrand.findUnique({ where: { id } }) : null;
  if (!current) throw notFound('Sub-brand');
  if (!options.admin) {
    const changed = COMMERCIAL_FIELDS.filter(
      (field) => data[field] !== undefined && same(data[field]) !== same(current[field]),
    );
    if (changed.length) {
      throw new AppError(
        'forbidden',
        `Only a platform admin may change ${changed.join(', ')} (currency, coin ratio, parent brand and commercial settings).`,
      );
    }
  }
  if (data.brandId && data.brandId !== current.brandId) {
    const brand = await db.brand.findUnique({ where: { id: data.brandId }, select: { id: true } });
    if (!brand) throw notFound('Brand');
  }
  const { style, monthlyAllocatedCoins, frameOrigins, ...rest } = data;
  return db.subBrand.update({
    where: { id },
    data: {
      ...rest,
      ...(style ? { style: { ...(current.style as Style), ...style } } : {}),
      ...(frameOrigins ? { frameOrigins: [...new Set(frameOrigins)] } : {}),
      ...(monthlyAllocatedCoins !== undefined
        ? { monthlyAllocatedCoins: BigInt(monthlyAllocatedCoins) }
        : {}),
    },
  });
}

/** Compares a given value with a stored one (a number with a bigint, null with null). */
const same = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);
