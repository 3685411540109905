// The provably fair draw (src/engine/campaigns/fair-draw.ts, docs/fairness.md), as a pure module:
// the worked example of the docs, the mapping onto [0, totalWeight) without modulo bias (property
// tests), and 10^6 draws from fixed seeds matching the weights (chi-square, p > 0.01).
import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CLIENT_SEED,
  acceptLimit,
  drawFromDigest,
  drawNumber,
  fairDraw,
  newClientSeed,
  newServerSeed,
  prizeIndex,
  seedHash,
} from '../../src/engine/campaigns/fair-draw.js';

const SPACE = 2 ** 32;
/** Fixed seeds: the same draws on every run. */
const fixedSeed = (i: number) => createHash('sha256').update(`fairness test ${i}`).digest('hex');

// ---- the chi-square distribution, for the critical value of any degrees of freedom ----

/** ln Γ(z), Lanczos (g = 7, n = 9): ~15 significant digits for z > 0. */
function lnGamma(z: number): number {
  const c = [
    0.9999999999998099, 676.5203681218851, -1259.1392167224028, 771.3234287776531,
    -176.61503916999186, 12.507343278686905, -0.13857109526572012, 9.984369578019572e-6,
    1.5056327351493116e-7,
  ];
  if (z < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * z)) - lnGamma(1 - z);
  const x = z - 1;
  let sum = c[0]!;
  for (let i = 1; i < 9; i++) sum += c[i]! / (x + i);
  const t = x + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** The regularized lower incomplete gamma P(a, x) (series below a + 1, continued fraction above). */
function gammaP(a: number, x: number): number {
  if (x <= 0) return 0;
  const front = Math.exp(-x + a * Math.log(x) - lnGamma(a));
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < 1000 && Math.abs(term) > Math.abs(sum) * 1e-15; n++) {
      term *= x / (a + n);
      sum += term;
    }
    return sum * front;
  }
  // Lentz's method for the continued fraction of Q(a, x).
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 1000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-15) break;
  }
  return 1 - front * h;
}

/** P(X > x) for X ~ χ²(df). */
const chiSquareSurvival = (x: number, df: number) => 1 - gammaP(df / 2, x / 2);

/** The x with P(X > x) = p, by bisection. */
function chiSquareCritical(p: number, df: number): number {
  let low = 0;
  let high = df + 100 * Math.sqrt(2 * df) + 100;
  for (let i = 0; i < 200; i++) {
    const mid = (low + high) / 2;
    if (chiSquareSurvival(mid, df) > p) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

function chiSquare(observed: number[], weights: number[]): number {
  const n = observed.reduce((s, o) => s + o, 0);
  const total = weights.reduce((s, w) => s + w, 0);
  return observed.reduce((s, o, i) => {
    const expected = (n * weights[i]!) / total;
    return s + (o - expected) ** 2 / expected;
  }, 0);
}

describe('the chi-square test itself', () => {
  it('gives the tables’ critical values at p = 0.01', () => {
    // NIST/SEMATECH e-Handbook, 1.3.6.7.4 (upper critical values, α = 0.01).
    const table: [number, number][] = [
      [1, 6.635],
      [2, 9.21],
      [5, 15.086],
      [10, 23.209],
      [49, 74.919],
    ];
    for (const [df, value] of table) expect(chiSquareCritical(0.01, df)).toBeCloseTo(value, 2);
  });
});

describe('the algorithm', () => {
  it('reproduces the worked example of docs/fairness.md', () => {
    const serverSeed = 'd2f4c36b0c1f5e8a9b7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b';
    const clientSeed = 'lucky-6';
    const weights = [60, 30, 9, 1];
    const digest = createHmac('sha256', Buffer.from(serverSeed, 'hex'))
      .update(`${clientSeed}:0`)
      .digest();
    expect(seedHash(serverSeed)).toBe(
      createHash('sha256').update(Buffer.from(serverSeed, 'hex')).digest('hex'),
    );
    const x = digest.readUInt32BE(0);
    expect(acceptLimit(100)).toBe(4_294_967_200);
    expect(x).toBeLessThan(acceptLimit(100)); // no value skipped in this example
    const result = fairDraw({ serverSeed, clientSeed, nonce: 0, weights });
    expect(result).toEqual({
      draw: x % 100,
      totalWeight: 100,
      resultIndex: prizeIndex(weights, x % 100),
    });
    // The numbers the guide shows (they change only if the algorithm does).
    expect(seedHash(serverSeed)).toBe(
      'c0568a482edf422b232a548dbbb3bf1aaa8c38d81383b3cfc9e1bad8abc9d6cd',
    );
    expect(digest.toString('hex')).toBe(
      '7306f95fcd03e24d2448aa7c4de6f44fa561b64fc06c4a6992524cbbad0b1b0f',
    );
    expect({ x, ...result }).toMatchInlineSnapshot(`
      {
        "draw": 95,
        "resultIndex": 2,
        "totalWeight": 100,
        "x": 1929836895,
      }
    `);
  });

  it('continues with round 1 when all eight values of a digest are skipped', () => {
    // Find a seed whose round-0 digest is all skipped for a total just above 2^31 (each value is
    // skipped with probability ~1/2, so one seed in ~256 is).
    const total = 2 ** 31 + 1;
    const limit = acceptLimit(total);
    let found = false;
    for (let i = 0; i < 5000 && !found; i++) {
      const seed = fixedSeed(i);
      const digest0 = createHmac('sha256', Buffer.from(seed, 'hex')).update('c:0').digest();
      if (drawFromDigest(digest0, total) !== null) continue;
      found = true;
      for (let at = 0; at < 32; at += 4)
        expect(digest0.readUInt32BE(at)).toBeGreaterThanOrEqual(limit);
      let expected: number | null = null;
      for (let round = 1; expected === null; round++) {
        const digest = createHmac('sha256', Buffer.from(seed, 'hex'))
          .update(`c:0:${round}`)
          .digest();
        expected = drawFromDigest(digest, total);
      }
      expect(drawNumber(seed, 'c', 0, total)).toBe(expected);
    }
    expect(found).toBe(true);
  });

  it('makes seeds of the documented shapes', () => {
    expect(newServerSeed()).toMatch(/^[0-9a-f]{64}$/);
    expect(newClientSeed()).toMatch(/^[0-9a-f]{32}$/);
    expect(newServerSeed()).not.toBe(newServerSeed());
    for (const ok of ['a', 'x'.repeat(64), '!~;9', 'seed-with_symbols.+/=?'])
      expect(CLIENT_SEED.test(ok), ok).toBe(true);
    for (const bad of ['', 'x'.repeat(65), 'a:b', 'with space', 'é', 'tab\t', 'nul\u0000'])
      expect(CLIENT_SEED.test(bad), bad).toBe(false);
  });
});

describe('no modulo bias (property tests)', () => {
  const totals = fc.integer({ min: 1, max: SPACE });

  it('the accepted values are a whole number of copies of [0, total)', () => {
    fc.assert(
      fc.property(totals, (total) => {
        const limit = acceptLimit(total);
        expect(limit % total).toBe(0);
        expect(limit).toBeLessThanOrEqual(SPACE);
        expect(SPACE - limit).toBeLessThan(total);
      }),
    );
  });

  it('a digest gives a value in [0, total), or null only when all eight values are skipped', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), totals, (bytes, total) => {
        const drawn = drawFromDigest(bytes, total);
        const values = Array.from({ length: 8 }, (_, i) => Buffer.from(bytes).readUInt32BE(i * 4));
        const first = values.find((x) => x < acceptLimit(total));
        if (first === undefined) expect(drawn).toBeNull();
        else {
          expect(drawn).toBe(first % total);
          expect(Number.isInteger(drawn)).toBe(true);
          expect(drawn).toBeGreaterThanOrEqual(0);
          expect(drawn).toBeLessThan(total);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('every draw is in range, for any seeds, nonce and total', () => {
    const clientSeed = fc
      .array(
        fc.integer({ min: 0x21, max: 0x7e }).filter((c) => c !== 0x3a),
        {
          minLength: 1,
          maxLength: 64,
        },
      )
      .map((codes) => String.fromCharCode(...codes));
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        clientSeed,
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        totals,
        (seed, client, nonce, total) => {
          const drawn = drawNumber(Buffer.from(seed).toString('hex'), client, nonce, total);
          expect(Number.isInteger(drawn)).toBe(true);
          expect(drawn).toBeGreaterThanOrEqual(0);
          expect(drawn).toBeLessThan(total);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('the prize is the one whose cumulative weight first exceeds the draw', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 1, maxLength: 50 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (weights, at) => {
          const total = weights.reduce((s, w) => s + w, 0);
          const drawn = Math.floor(at * total);
          const i = prizeIndex(weights, drawn);
          const before = weights.slice(0, i).reduce((s, w) => s + w, 0);
          expect(before).toBeLessThanOrEqual(drawn);
          expect(drawn).toBeLessThan(before + weights[i]!);
        },
      ),
    );
  });
});

describe('the draws match the weights (chi-square, p > 0.01)', () => {
  it('10^6 draws from 10 fixed seeds', () => {
    const weights = [500, 300, 150, 40, 9, 1];
    const observed = weights.map(() => 0);
    for (let s = 0; s < 10; s++) {
      const serverSeed = fixedSeed(s);
      for (let nonce = 0; nonce < 100_000; nonce++)
        observed[fairDraw({ serverSeed, clientSeed: 'chi-square', nonce, weights }).resultIndex]!++;
    }
    const statistic = chiSquare(observed, weights);
    const df = weights.length - 1;
    const p = chiSquareSurvival(statistic, df);
    console.log(
      `10^6 draws: ${observed.join(' ')}; χ² ${statistic.toFixed(3)}, df ${df}, p ${p.toFixed(4)}`,
    );
    expect(statistic).toBeLessThan(chiSquareCritical(0.01, df));
    expect(p).toBeGreaterThan(0.01);
  });

  it('stay unbiased where half the values are skipped (a plain modulo would give 1/2 : 1/2)', () => {
    // total 3 × 2^30: x mod total would land on the first third twice as often as on the rest.
    const weights = [2 ** 30, 2 ** 31];
    const observed = [0, 0];
    const serverSeed = fixedSeed(99);
    for (let nonce = 0; nonce < 100_000; nonce++)
      observed[fairDraw({ serverSeed, clientSeed: 'skips', nonce, weights }).resultIndex]!++;
    const statistic = chiSquare(observed, weights);
    expect(chiSquareSurvival(statistic, 1)).toBeGreaterThan(0.01);
    // The plain modulo, on the same digests, is refused by the same test.
    const naive = [0, 0];
    for (let nonce = 0; nonce < 100_000; nonce++) {
      const digest = createHmac('sha256', Buffer.from(serverSeed, 'hex'))
        .update(`skips:${nonce}`)
        .digest();
      naive[prizeIndex(weights, digest.readUInt32BE(0) % (3 * 2 ** 30))]!++;
    }
    expect(chiSquareSurvival(chiSquare(naive, weights), 1)).toBeLessThan(1e-6);
  });
});
