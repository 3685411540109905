import type { z } from 'zod';
import type { Db } from '../db.js';
import { newId } from '../ids.js';
import { parseInput } from '../validation.js';
import { brandInput } from './inputs.js';

export function createBrand(db: Db, input: z.input<typeof brandInput>) {
  const { name } = parseInput(brandInput, input);
  return db.brand.create({ data: { id: newId(), name } });
}
