// Ids are UUIDv7 made from pooled random bytes (src/domain/ids.ts): cursors and "newest first"
// lists rely on ids made later sorting higher, also within one millisecond, and on every id being
// distinct and well formed.
import { describe, expect, it } from 'vitest';
import { idFloor, idTime, isUuid, newId } from '../../src/domain/ids.js';

describe('newId', () => {
  it('is a version 7, RFC 9562 variant UUID carrying the current millisecond', () => {
    const before = Date.now();
    const id = newId();
    const after = Date.now();
    expect(isUuid(id)).toBe(true);
    expect(id[14]).toBe('7');
    expect('89ab').toContain(id[19]);
    expect(idTime(id).getTime()).toBeGreaterThanOrEqual(before);
    expect(idTime(id).getTime()).toBeLessThanOrEqual(after + 1);
    expect(id >= idFloor(new Date(before))).toBe(true);
  });

  it('sorts in the order made and never repeats, across many pool refills', () => {
    // 20,000 ids: far more than one millisecond holds, and 78 refills of the 4 KiB pool.
    const ids = Array.from({ length: 20_000 }, newId);
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 1; i < ids.length; i++) {
      if (!(ids[i - 1]! < ids[i]!)) throw new Error(`id ${i} sorts before the one made before it`);
    }
  });

  it('draws fresh random bits for every id (no two share their random tail)', () => {
    const tails = Array.from({ length: 5_000 }, () => newId().slice(-12));
    expect(new Set(tails).size).toBe(tails.length);
  });
});
