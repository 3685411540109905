import type { z } from 'zod';
import type { Db } from '../db.js';
import { notFound } from '../errors.js';
import { newId } from '../ids.js';
import { parseInput } from '../validation.js';
import { subBrandInput } from './inputs.js';

export async function createSubBrand(db: Db, input: z.input<typeof subBrandInput>) {
  const data = parseInput(subBrandInput, input);
  const brand = await db.brand.findUnique({ where: { id: data.brandId }, select: { id: true } });
  if (!brand) throw notFound('Brand');
  return db.subBrand.create({
    data: { id: newId(), ...data, country: data.country ?? null },
  });
}
