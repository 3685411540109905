// The first load of /admin, as a browser gets it: the index page, then the script, its module
// preloads and the stylesheet it names, each requested from the running server with the
// Accept-Encoding Chromium sends and measured as the bytes on the wire. Together they stay under
// 200 KB (docs/backoffice.md, "Speed"); hashed assets keep their year of immutable caching.
import { request } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_DIST } from '../../src/backoffice/router.js';
import { startHarness, type Harness } from '../support/harness.js';

const BUDGET = 200 * 1024;
const CHROMIUM_ACCEPT = 'gzip, deflate, br, zstd';

type Wire = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
};

/** A GET whose body is kept as sent (fetch would decompress it). */
function get(url: string, headers: Record<string, string> = {}): Promise<Wire> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

const decoded = (w: Wire) =>
  w.headers['content-encoding'] === 'br'
    ? brotliDecompressSync(w.body)
    : w.headers['content-encoding'] === 'gzip'
      ? gunzipSync(w.body)
      : w.body;

/** What index.html loads on first load: the entry script, its module preloads, stylesheets. */
function firstLoad(html: string): string[] {
  const tags = html.match(/<(?:script|link)\b[^>]*>/g) ?? [];
  return tags.flatMap((tag) => {
    const url = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
    if (!url) return [];
    if (tag.startsWith('<script') && /type="module"/.test(tag)) return [url];
    if (/rel="(?:modulepreload|stylesheet)"/.test(tag)) return [url];
    return [];
  });
}

let h: Harness;
beforeAll(async () => {
  if (!existsSync(path.join(WEB_DIST, 'index.html')))
    throw new Error('The backoffice is not built: npm run web:build (npm install does it).');
  h = await startHarness();
});
afterAll(() => h?.close());

describe('the backoffice first load', () => {
  it('sends its assets and index.html in brotli (gzip otherwise), with Vary', async () => {
    const page = await get(`${h.url}/admin/`, { 'accept-encoding': CHROMIUM_ACCEPT });
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['vary']).toMatch(/accept-encoding/i);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toBeTruthy();
    const html = decoded(page).toString('utf8');
    expect(html).toBe(readFileSync(path.join(WEB_DIST, 'index.html'), 'utf8'));

    const [script] = firstLoad(html);
    const raw = readFileSync(path.join(WEB_DIST, script!.replace(/^\/admin\//, '')));
    const br = await get(h.url + script, { 'accept-encoding': CHROMIUM_ACCEPT });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^text\/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(decoded(br).equals(raw)).toBe(true);

    const gzip = await get(h.url + script, { 'accept-encoding': 'gzip, deflate' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(decoded(gzip).equals(raw)).toBe(true);

    const refused = await get(h.url + script, { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.equals(raw)).toBe(true);
    const none = await get(h.url + script);
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.headers['content-type']).toMatch(/^text\/javascript/);
    expect(none.body.length).toBe(raw.length);

    const missing = await get(`${h.url}/admin/assets/nothing-here.js`, {
      'accept-encoding': CHROMIUM_ACCEPT,
    });
    expect(missing.status).toBe(404);
    const escape = await get(`${h.url}/admin/assets/..%2Findex.html`, {
      'accept-encoding': CHROMIUM_ACCEPT,
    });
    expect(escape.status).toBe(404);
  });

  it(`totals at most ${BUDGET / 1024} KB of compressed JavaScript and CSS`, async () => {
    const page = await get(`${h.url}/admin/`, { 'accept-encoding': CHROMIUM_ACCEPT });
    const urls = firstLoad(decoded(page).toString('utf8'));
    expect(urls.some((u) => u.endsWith('.js'))).toBe(true);
    expect(urls.some((u) => u.endsWith('.css'))).toBe(true);
    const sizes: Record<string, number> = {};
    for (const url of urls) {
      const res = await get(h.url + url, { 'accept-encoding': CHROMIUM_ACCEPT });
      expect(res.status, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('br');
      sizes[url] = res.body.length;
    }
    const total = Object.values(sizes).reduce((a, b) => a + b, 0);
    expect(total, JSON.stringify(sizes, null, 2)).toBeLessThanOrEqual(BUDGET);
  });
});
