// The Audit screen's readable diff (web/src/features/audit/diff.ts): an audit entry's before and
// after as field-by-field lines, nested objects flattened by path, values compact.
import { describe, expect, it } from 'vitest';
import {
  argsSummary,
  auditDiff,
  changeText,
  flatten,
  formatValue,
  labelOf,
  MAX_VALUE_LENGTH,
} from '../../web/src/features/audit/diff.js';
import { actionLabel } from '../../web/src/features/audit/actions.js';

const lines = (before: unknown, after: unknown) => auditDiff(before, after).map(changeText);

describe('auditDiff', () => {
  it('shows what changed, field by field, in words, leaving the rest out', () => {
    expect(
      lines(
        { status: 'active', balance: 1200, email: 'ana@casino.es', updatedAt: '2026-11-01' },
        { status: 'blocked', balance: 1450, email: 'ana@casino.es', updatedAt: '2026-11-02' },
      ),
    ).toEqual([
      'Status: active → blocked',
      'Balance: 1,200 → 1,450 (+250)',
      'Updated at: 2026-11-01 → 2026-11-02',
    ]);
  });

  it('marks fields added and removed, and null as a dash', () => {
    expect(lines({ phone: '+34 600', nickname: null }, { nickname: 'Ana', vip: true })).toEqual([
      'Nickname: — → Ana',
      'Vip: yes (added)',
      'Phone: +34 600 (removed)',
    ]);
  });

  it('flattens nested objects by path, and walks arrays of objects by position', () => {
    expect(
      lines(
        { branding: { colors: { primary: '#111' } }, items: [{ sku: 'A', qty: 1 }] },
        { branding: { colors: { primary: '#222' } }, items: [{ sku: 'A', qty: 3 }] },
      ),
    ).toEqual(['Branding › Colors › Primary: #111 → #222', 'Items 1 › Qty: 1 → 3 (+2)']);
    expect([...flatten({ a: { b: 1 }, tags: ['x', 'y'], empty: {} })]).toEqual([
      ['a.b', 1],
      ['tags', ['x', 'y']],
      ['empty', {}],
    ]);
  });

  it('shows arrays of plain values and long values compactly', () => {
    const long = 'x'.repeat(200);
    const [change] = auditDiff({ tags: ['a'], note: 'short' }, { tags: ['a', 'b'], note: long });
    expect(changeText(change!)).toBe('Tags: ["a"] → ["a","b"]');
    const note = auditDiff({ note: 'short' }, { note: long })[0]!;
    expect(note.kind === 'changed' && note.after.length).toBe(MAX_VALUE_LENGTH);
    expect(note.kind === 'changed' && note.after.endsWith('…')).toBe(true);
  });

  it('lists a result recorded without a before as added fields', () => {
    expect(lines(null, { id: 'k1', name: 'Key' })).toEqual(['Id: k1 (added)', 'Name: Key (added)']);
    expect(lines(null, null)).toEqual([]);
    expect(lines({ a: 1 }, { a: 1 })).toEqual([]);
    expect(lines(5, 7)).toEqual(['Value: 5 → 7 (+2)']);
  });

  it('formats in the given locale', () => {
    expect(formatValue(1234567, 'de-DE')).toBe('1.234.567');
    expect(auditDiff({ balance: 1000 }, { balance: 900 }, 'en-GB').map(changeText)).toEqual([
      'Balance: 1,000 → 900 (-100)',
    ]);
    expect(formatValue('')).toBe('(empty)');
    // Instants read as dates in the locale and the given time zone, the zone named.
    expect(
      auditDiff(
        { updatedAt: '2026-11-01T09:05:00.000Z' },
        { updatedAt: '2026-11-02T18:30:15.250Z' },
        'en-GB',
        'UTC',
      ).map(changeText),
    ).toEqual(['Updated at: 1 Nov 2026, 09:05:00 UTC → 2 Nov 2026, 18:30:15 UTC']);
    expect(formatValue('2026-11-01T09:05:00Z', 'en-GB', 'Europe/Madrid')).toBe(
      '1 Nov 2026, 10:05:00 CET',
    );
    expect(formatValue({ a: 1 })).toBe('{"a":1}');
  });
});

describe('labels', () => {
  it('spells keys and paths in words', () => {
    expect(labelOf('coinBalance')).toBe('Coin balance');
    expect(labelOf('sub_brand_id')).toBe('Sub brand id');
    expect(labelOf('shipping.postalCode')).toBe('Shipping › Postal code');
    expect(labelOf('')).toBe('Value');
  });

  it('names actions in words, an unknown one from its camelCase', () => {
    expect(actionLabel('adjustCustomerCoins')).toBe('Coin adjustment');
    expect(actionLabel('setOrderItemTracking')).toBe('Tracking set');
    expect(actionLabel('rotateCampaignGameSeed')).toBe('Rotate campaign game seed');
  });

  it("summarises a change's arguments, the target's own id left out", () => {
    expect(
      argsSummary({ customerId: 'c1', delta: 250, reason: 'Goodwill' }, 'c1', 'en-GB'),
    ).toEqual(['Delta: 250', 'Reason: Goodwill']);
    expect(argsSummary(null, null)).toEqual([]);
  });
});
