// A store session's token as a caller: the player principal of the marketplace (docs/
// marketplace.md). It is a Principal like a key's or a staff member's, so the schema's tenancy
// applies unchanged, with one scope, `player`, that only the marketplace's fields accept; what
// those fields read and change is the session's own customer's, never an id the caller sends.
import { sqlFor } from '../../db/sql.js';
import type { Db } from '../db.js';
import { AppError } from '../errors.js';
import type { Principal } from '../tenancy/authenticate-api-key.js';
import { verifyStoreSession } from './store-session.js';

/** A player's rate budget per session and window: a person clicking, not a program. */
export const PLAYER_LIMITS = { read: 300, write: 60 } as const;

export const PLAYER_SCOPE = 'player';

/** The principal of a valid, unexpired, not signed-out session token; throws `unauthorized`. */
export async function playerPrincipal(db: Db, token: string, now: Date): Promise<Principal> {
  const claims = await verifyStoreSession(db, token, now);
  const {
    rows: [subBrand],
  } = await sqlFor(db).query<{ brand_id: string; country: string | null; currency: string }>(
    'SELECT brand_id, country, currency FROM sub_brands WHERE id = $1::uuid',
    [claims.subBrandId],
  );
  if (!subBrand) throw new AppError('unauthorized', 'Store session is not valid.');
  return {
    keyId: `player:${claims.sid}`,
    subBrandId: claims.subBrandId,
    brandId: subBrand.brand_id,
    environment: claims.environment,
    scopes: new Set([PLAYER_SCOPE]),
    allowedCidrs: [],
    readLimit: PLAYER_LIMITS.read,
    writeLimit: PLAYER_LIMITS.write,
    isPlatformAdmin: false,
    market: subBrand.country ? { country: subBrand.country, currency: subBrand.currency } : null,
    player: {
      customerId: claims.customerId,
      storeId: claims.storeId,
      sessionId: claims.sid,
      expiresAt: new Date(claims.exp * 1000),
    },
  };
}
