import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

/**
 * Random bytes drawn from the system a page at a time. uuid's own v7() asks for 16 bytes per id
 * (crypto.getRandomValues), and under load that call showed as 3 % of a partner order's server
 * CPU (docs/performance.md); one 4 KiB fill serves 256 ids. Node's randomUUID pools the same way.
 * Each byte is handed out once.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let offset = 0;
function random16(): Uint8Array {
  if (offset + 16 > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_BYTES));
    offset = 0;
  }
  return pool.subarray(offset, (offset += 16));
}

/**
 * The millisecond and counter of the last id, as uuid's v7() keeps them when it draws its own
 * bytes (given bytes, it keeps none): within one millisecond the counter goes up by one, so ids
 * made by this process always sort in the order they were made; a new millisecond starts the
 * counter at 31 random bits. RFC 9562 §6.2, method 1.
 */
const state = { msecs: -Infinity, seq: 0 };

/** Time-ordered ids: sorting by id is sorting by creation, which cursors rely on. */
export function newId(): string {
  const random = random16();
  const now = Date.now();
  if (now > state.msecs) {
    state.msecs = now;
    state.seq = ((random[6]! & 0x7f) << 24) | (random[7]! << 16) | (random[8]! << 8) | random[9]!;
  } else {
    state.seq = (state.seq + 1) | 0;
    if (state.seq === 0) state.msecs++; // the counter ran over: borrow the next millisecond
  }
  return v7({ random, msecs: state.msecs, seq: state.seq });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID.test(value);

/** The creation instant a UUIDv7 carries (its first 48 bits: Unix milliseconds). */
export const idTime = (id: string): Date =>
  new Date(parseInt(id.replace(/-/g, '').slice(0, 12), 16));

/** The smallest UUIDv7 of an instant: every id made at or after it sorts at or above this. */
export function idFloor(instant: Date): string {
  const hex = Math.max(0, Math.floor(instant.getTime())).toString(16).padStart(12, '0').slice(-12);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}
