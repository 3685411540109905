// When an order mutation may answer from the rows it wrote instead of reading them back: every
// selection the answer could miss must read back (src/schema/written-order.ts).
import { describe, expect, it } from 'vitest';
import type { WrittenOrder } from '../../src/domain/orders/insert-order.js';
import { writtenAnswers } from '../../src/schema/written-order.js';

const written = {
  id: 'o',
  status: 'pending',
  items: [{ id: 'i1' }, { id: 'i2' }],
  events: [{ id: 'e1' }],
  reservation: { id: 'r' },
  customer: { email: null, firstName: 'Ana', lastName: 'García' },
  subBrand: { name: 'S', imageUrl: null, thumbnailUrl: null },
} as unknown as WrittenOrder;

describe('writtenAnswers', () => {
  it('answers what the REST routes select: columns, lines, history, the carried relations', () => {
    expect(
      writtenAnswers(written, {
        include: {
          items: { orderBy: { position: 'asc' } },
          events: { orderBy: { id: 'asc' }, select: { id: true, kind: true } },
          reservation: { select: { id: true } },
          customer: { select: { email: true, firstName: true } },
          subBrand: { select: { name: true, imageUrl: true } },
        },
      }),
    ).toBe(true);
    expect(writtenAnswers(written, { select: { id: true, status: true, items: true } })).toBe(true);
    expect(writtenAnswers(written, { include: { items: { take: 2 } } })).toBe(true);
  });

  it('reads back for anything the written rows may not hold', () => {
    const refused = [
      { select: { notAColumn: true } },
      { include: { _count: { select: { items: true } } } },
      { include: { customer: true } }, // the whole customer row is not carried
      { include: { customer: { select: { status: true } } } },
      { include: { subBrand: { select: { name: true, brand: { select: { name: true } } } } } },
      { include: { items: { where: { kind: 'digital' } } } },
      { include: { items: { skip: 1 } } },
      { include: { items: { take: 1 } } }, // fewer rows than written
      { include: { items: { orderBy: { position: 'desc' } } } },
      { include: { items: { orderBy: { productName: 'asc' } } } },
      { include: { items: { include: { order: true } } } },
    ];
    for (const query of refused)
      expect(writtenAnswers(written, query), JSON.stringify(query)).toBe(false);
  });
});
