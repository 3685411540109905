import type { Db } from '../db.js';
import { notFound } from '../errors.js';
import { isUuid } from '../ids.js';

/** Revokes a key; revoking twice is harmless and keeps the first revocation time. */
export async function revokeApiKey(db: Db, id: string) {
  if (!isUuid(id)) throw notFound('API key');
  const key = await db.apiKey.findUnique({ where: { id } });
  if (!key) throw notFound('API key');
  if (key.revokedAt) return key;
  return db.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
}
