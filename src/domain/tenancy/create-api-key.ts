import type { z } from 'zod';
import type { Environment } from '../../generated/prisma/enums.js';
import type { Db } from '../db.js';
import { AppError, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { parseInput } from '../validation.js';
import { mintKey } from './api-key-format.js';
import { ensurePlatform } from './ensure-platform.js';
import { apiKeyInput } from './inputs.js';
import { ADMIN_SCOPE } from './scopes.js';

export type CreatedApiKey = {
  id: string;
  /** The key itself: returned here once and never again. */
  key: string;
  displayPrefix: string;
  subBrandId: string;
  scopes: string[];
  environment: Environment;
};

/** A partner key of one sub-brand. The platform's admin scope cannot be granted this way. */
export async function createApiKey(
  db: Db,
  input: z.input<typeof apiKeyInput>,
): Promise<CreatedApiKey> {
  const data = parseInput(apiKeyInput, input);
  const subBrand = await db.subBrand.findUnique({ where: { id: data.subBrandId } });
  if (!subBrand) throw notFound('Sub-brand');
  if (subBrand.isPlatform) {
    throw new AppError(
      'invalid_request',
      'Keys of the platform establishment are admin keys: use createPlatformAdminKey.',
    );
  }
  return insertKey(db, {
    ...data,
    readLimit: data.readLimit ?? null,
    writeLimit: data.writeLimit ?? null,
  });
}

/** A backoffice key of the platform establishment, holding the admin scope. */
export async function createPlatformAdminKey(
  db: Db,
  environment: Environment,
): Promise<CreatedApiKey> {
  const platform = await ensurePlatform(db);
  return insertKey(db, {
    subBrandId: platform.id,
    environment,
    scopes: [ADMIN_SCOPE],
    allowedCidrs: [],
    readLimit: null,
    writeLimit: null,
  });
}

async function insertKey(
  db: Db,
  data: {
    subBrandId: string;
    environment: Environment;
    scopes: string[];
    allowedCidrs: string[];
    readLimit: number | null;
    writeLimit: number | null;
  },
): Promise<CreatedApiKey> {
  const minted = mintKey(data.environment);
  const row = await db.apiKey.create({
    data: { id: newId(), keyHash: minted.hash, displayPrefix: minted.displayPrefix, ...data },
  });
  return {
    id: row.id,
    key: minted.key,
    displayPrefix: row.displayPrefix,
    subBrandId: row.subBrandId,
    scopes: row.scopes,
    environment: row.environment,
  };
}
