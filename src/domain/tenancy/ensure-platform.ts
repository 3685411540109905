import type { Db } from '../db.js';
import { inTransaction } from '../db.js';
import { newId } from '../ids.js';
import { isUniqueViolation } from '../prisma-errors.js';

/** The platform establishment (one per installation), created on first need. */
export async function ensurePlatform(db: Db) {
  const existing = await db.subBrand.findFirst({ where: { isPlatform: true } });
  if (existing) return existing;
  try {
    return await inTransaction(db, async (tx) => {
      const brand = await tx.brand.create({ data: { id: newId(), name: 'Platform' } });
      return tx.subBrand.create({
        data: { id: newId(), brandId: brand.id, name: 'Platform', isPlatform: true },
      });
    });
  } catch (error) {
    // Two first calls raced; the partial unique index let one win.
    if (!isUniqueViolation(error)) throw error;
    return db.subBrand.findFirstOrThrow({ where: { isPlatform: true } });
  }
}
