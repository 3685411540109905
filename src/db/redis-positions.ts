// Callers' last write positions in Redis (db/replica.ts), so that a caller whose write one server
// process answered reads it on any other: the write's answer waits for the SET, a read's choice
// for one GET. Kept an hour: a standby further behind than that should be out of service (watch
// its replay lag); past it a caller could read the standby without its write.
import { Redis } from 'ioredis';
import type { SharedPositions } from './replica.js';

const KEPT_MS = 60 * 60 * 1000;

export function redisPositions(url: string, prefix = 'rr'): SharedPositions {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    lazyConnect: false,
  });
  redis.on('error', () => {}); // a refused command surfaces to the caller (replica.ts decides)
  return {
    async set(caller, lsn) {
      // Only forward: a slower process's older position must not replace a newer one. Fixed-width
      // hex compares as text (Lua's numbers are doubles, too short for a 64-bit position).
      await redis.eval(
        `local v = redis.call('GET', KEYS[1])
         if not v or v < ARGV[1] then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end`,
        1,
        `${prefix}:${caller}`,
        lsn.toString(16).padStart(16, '0'),
        KEPT_MS,
      );
    },
    async get(caller) {
      const v = await redis.get(`${prefix}:${caller}`);
      return v === null ? undefined : BigInt(`0x${v}`);
    },
    async close() {
      redis.disconnect();
    },
  };
}
