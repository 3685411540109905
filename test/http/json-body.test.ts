// A route's JSON body: the common request is read by the app's own reader, anything else
// (compressed, chunked, another charset) by express.json; both give the same answers.
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminKey } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';
import { TEST_ROUTES } from '../support/test-routes.js';

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await startHarness({ routes: TEST_ROUTES });
  admin = (await adminKey(h.db.prisma)).key;
});
afterAll(() => h.close());

/** POST /api/v1/test/brands (a 1 KiB limit) with exactly these bytes and headers. */
function post(
  body: Buffer | Buffer[],
  headers: Record<string, string>,
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${h.url}/api/v1/test/brands`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${admin}`,
          'idempotency-key': `k-${Math.random()}`,
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on('error', reject);
    // Several writes: the body reaches the server in several chunks.
    for (const part of Array.isArray(body) ? body : [body]) req.write(part);
    req.end();
  });
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const sized = (body: Buffer, type = 'application/json') => ({
  'content-type': type,
  'content-length': String(body.length),
});

describe('a JSON body', () => {
  it('is read whole when it arrives in pieces, a character split between them', async () => {
    const body = json({ name: 'Zoë 🎲 Café' });
    const cut = body.indexOf(Buffer.from('🎲')) + 2; // inside the 4-byte character
    const res = await post([body.subarray(0, cut), body.subarray(cut)], sized(body));
    expect(res.status).toBe(201);
    expect(res.body.data.name).toBe('Zoë 🎲 Café');
  });

  it('may start with a byte-order mark or whitespace, and name its type in any case', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), json({ name: 'bom' })]);
    expect((await post(body, sized(body))).body.data.name).toBe('bom');
    const spaced = Buffer.from(' \n\t{"name":"spaced"}');
    const res = await post(spaced, sized(spaced, 'Application/JSON; Charset=UTF-8'));
    expect(res.body.data.name).toBe('spaced');
  });

  it('that is empty is {} (a validation error naming the field), not invalid JSON', async () => {
    const res = await post(Buffer.alloc(0), sized(Buffer.alloc(0)));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.details[0].field).toBe('name');
  });

  it('must be an object or an array at the top', async () => {
    for (const text of ['"a string"', '42', 'null', ' true', '{"name": "x"} trailing']) {
      const body = Buffer.from(text);
      const res = await post(body, sized(body));
      expect(res.status, text).toBe(400);
      expect(res.body.error.code, text).toBe('invalid_json');
    }
  });

  it('over the route limit is refused before it is read, and so is a chunked one', async () => {
    const big = json({ name: 'x'.repeat(2000) });
    const sizedRes = await post(big, sized(big));
    expect(sizedRes.body.error.code).toBe('payload_too_large');
    const chunked = await post([big.subarray(0, 900), big.subarray(900)], {
      'content-type': 'application/json',
      'transfer-encoding': 'chunked',
    });
    expect(chunked.body.error.code).toBe('payload_too_large');
  });

  it('chunked, gzip-compressed or in UTF-16 is read too', async () => {
    const chunked = json({ name: 'chunked' });
    const a = await post([chunked.subarray(0, 5), chunked.subarray(5)], {
      'content-type': 'application/json',
      'transfer-encoding': 'chunked',
    });
    expect(a.body.data.name).toBe('chunked');
    const zipped = gzipSync(json({ name: 'zipped' }));
    const b = await post(zipped, { ...sized(zipped), 'content-encoding': 'gzip' });
    expect(b.body.data.name).toBe('zipped');
    const utf16 = Buffer.from(JSON.stringify({ name: 'wide ü' }), 'utf16le');
    const c = await post(utf16, sized(utf16, 'application/json; charset=utf-16le'));
    expect(c.body.data.name).toBe('wide ü');
  });

  it('that does not decode, or in a charset JSON does not allow, is refused in the envelope', async () => {
    const garbage = Buffer.from('not gzip at all');
    const a = await post(garbage, { ...sized(garbage), 'content-encoding': 'gzip' });
    expect(a.status).toBe(400);
    expect(a.body.error.code).toBe('invalid_request');
    const latin = Buffer.from('{"name":"x"}', 'latin1');
    const b = await post(latin, sized(latin, 'application/json; charset=iso-8859-1'));
    expect(b.status).toBe(415);
    expect(b.body.error.code).toBe('unsupported_media_type');
  });
});

describe('a route path', () => {
  it('answers OPTIONS with the methods it allows, and HEAD like GET without a body', async () => {
    const options = await fetch(`${h.url}/api/v1/test/brands`, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('POST, GET, HEAD, OPTIONS');
    const head = await fetch(`${h.url}/api/v1/test/brands`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${admin}` },
    });
    const get = await fetch(`${h.url}/api/v1/test/brands`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect((await get.json()).data).toBeDefined();
  });
});
