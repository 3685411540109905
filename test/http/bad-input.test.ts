// Issue 13 item 5: input that used to reach PostgreSQL or express's internals and answer 500 (or
// a bare 431) is a documented 4xx in the partner envelope, naming what is wrong.
import { randomUUID } from 'node:crypto';
import { createDefinition } from '../../src/engine/points/author-definition.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness, type Reply } from '../support/harness.js';
import { partner } from '../support/partner.js';

let h: Harness;
let p: Awaited<ReturnType<typeof partner>>;
beforeAll(async () => {
  h = await startHarness();
  p = await partner(h);
});
afterAll(() => h.close());

const refused = (res: Reply, status: number, code: string, message?: RegExp) => {
  expect(res.status).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
  if (message) expect(res.body.error.message).toMatch(message);
};

describe('NUL characters', () => {
  it('are refused in body fields, queries and paths, naming the field', async () => {
    refused(
      await p.post('/api/v1/customers', { first_name: 'A\u0000', last_name: 'B' }),
      400,
      'invalid_request',
      /first_name: must not contain NUL/,
    );
    refused(
      await p.get('/api/v1/customers?q=a%00b'),
      400,
      'invalid_request',
      /q: must not contain NUL/,
    );
    const c = await p.customer();
    refused(
      await p.patch(`/api/v1/customers/${c.id}`, { address_line: 'x\u0000' }),
      400,
      'invalid_request',
      /address_line/,
    );
  });

  it('in an engine event are refused before any execution is claimed', async () => {
    await createDefinition(h.db.prisma, { subBrandId: p.subBrandId, code: 'spin', points: 10 });
    const res = await p.post('/api/v1/engine/events', {
      event_code: 'spin',
      data: { externalUserId: 'x', note: 'a\u0000' },
    });
    refused(res, 400, 'invalid_request', /data\.note: must not contain NUL/);
    expect(await h.db.prisma.engineExecution.count({ where: { subBrandId: p.subBrandId } })).toBe(
      0,
    );
  });
});

describe('other input that used to answer 500', () => {
  it('%ff in a path', async () => {
    refused(await p.get('/api/v1/customers/%ff'), 400, 'invalid_request', /percent-encoded/);
  });

  it('year-0000 dates, in a query and in a body', async () => {
    refused(
      await p.get('/api/v1/customers?created_after=0000-01-01T00:00:00Z'),
      400,
      'invalid_request',
      /created_after: must be in the years 0001 to 9999/,
    );
    refused(
      await p.post('/api/v1/customers', {
        first_name: 'A',
        last_name: 'B',
        platform_registered_at: '0000-06-01T00:00:00Z',
      }),
      400,
      'invalid_request',
      /platform_registered_at/,
    );
  });

  it('min_orders and max_orders past 2^31 - 1', async () => {
    const c = await p.customer();
    const none = await p.get('/api/v1/customers?min_orders=2147483648');
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual([]);
    const all = await p.get('/api/v1/customers?max_orders=9007199254740991');
    expect(all.body.data.map((x: { id: string }) => x.id)).toContain(c.id);
  });

  it.each(['gzip', 'br', 'deflate'])('a garbage %s body', async (encoding) => {
    const res = await h.call('POST', '/api/v1/customers', {
      key: p.key,
      raw: 'certainly not compressed',
      headers: {
        'content-type': 'application/json',
        'content-encoding': encoding,
        'idempotency-key': randomUUID(),
      },
    });
    refused(res, 400, 'invalid_request', /Content-Encoding/);
  });

  it('a 100 KB URL: 431 in the envelope, not an empty body', async () => {
    const res = await p.get(`/api/v1/customers?q=${'a'.repeat(100_000)}`);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.status).toBe(431);
    expect(res.body.error.code).toBe('headers_too_large');
    expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
  });

  it('JSON nested deeper than 32 levels', async () => {
    let data: unknown = 1;
    for (let i = 0; i < 40; i++) data = { a: data };
    refused(
      await p.post('/api/v1/engine/events', { event_code: 'spin', data }),
      400,
      'invalid_request',
      /must not nest deeper than 32 levels/,
    );
  });
});
