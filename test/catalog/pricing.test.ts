// The price cascade's arithmetic, on the pure functions every price goes through.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyMargin,
  cascadePrice,
  coinPrice,
  currencyExponent,
} from '../../src/domain/catalog/pricing.js';

describe('margin cascade', () => {
  it('rounds half up to a whole minor unit', () => {
    expect(applyMargin(999, 1500)).toBe(1149); // 1148.85
    expect(applyMargin(1000, 5)).toBe(1001); // 1000.5 → up
    expect(applyMargin(1000, 4)).toBe(1000); // 1000.4 → down
    expect(applyMargin(0, 5000)).toBe(0);
  });

  it('applies each level to the price before it, rounding at every step', () => {
    expect(cascadePrice(1000, [1000, 1000, 1000])).toBe(1331);
    // 5 → 5.5 → 6, then 6 → 6.6 → 7; one combined margin of 21 % would give 6.05 → 6.
    expect(cascadePrice(5, [1000, 1000])).toBe(7);
    expect(cascadePrice(4500, [0, 0, 0])).toBe(4500);
  });

  it('never sells below cost and grows with every margin', () => {
    const bps = fc.integer({ min: 0, max: 100_000 });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000 }), bps, bps, bps, (cost, p, b, s) => {
        const price = cascadePrice(cost, [p, b, s]);
        expect(price).toBeGreaterThanOrEqual(cost);
        expect(Number.isSafeInteger(price)).toBe(true);
        expect(cascadePrice(cost, [p + 1, b, s])).toBeGreaterThanOrEqual(price);
      }),
    );
  });
});

describe('coin price', () => {
  it('converts minor units through the currency exponent, rounding up to a whole coin', () => {
    expect(currencyExponent('EUR')).toBe(2);
    expect(currencyExponent('JPY')).toBe(0);
    expect(currencyExponent('KWD')).toBe(3);
    expect(coinPrice(1149, 'EUR', 100)).toBe(1149); // 11.49 EUR at 100 coins per euro
    expect(coinPrice(1149, 'EUR', 10)).toBe(115); // 114.9 → 115
    expect(coinPrice(1149, 'JPY', 1)).toBe(1149); // 1,149 yen at 1 coin per yen
    expect(coinPrice(1149, 'KWD', 100)).toBe(115); // 1.149 KWD × 100 = 114.9 → 115
    expect(coinPrice(0, 'EUR', 100)).toBe(0);
  });

  it('never charges less than the money value in coins', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.constantFrom('EUR', 'JPY', 'KWD', 'USD'),
        fc.integer({ min: 1, max: 1000 }),
        (price, currency, ratio) => {
          const coins = coinPrice(price, currency, ratio);
          const exact = (price * ratio) / 10 ** currencyExponent(currency);
          expect(coins).toBeGreaterThanOrEqual(exact);
          expect(coins - exact).toBeLessThan(1);
        },
      ),
    );
  });
});
