// Whose writes a read must see (db/replica.ts): a player's session, a staff member, an API key.
import type { Principal } from './authenticate-api-key.js';

export const callerOf = (p: Principal): string =>
  p.player
    ? `player:${p.player.sessionId}`
    : p.staff
      ? `staff:${p.staff.userId}`
      : `key:${p.keyId}`;
