// The route table's matcher answers as express's router did: the first row in table order whose
// pattern fits, literals without case, one trailing slash, HEAD served by GET, parameters decoded.
import { describe, expect, it } from 'vitest';
import type { Route } from '../../src/rest/route.js';
import { RouteMatcher } from '../../src/rest/route-matcher.js';
import { ROUTES } from '../../src/rest/table.js';

const row = (method: Route['method'], path: string, name = `${method} ${path}`) =>
  ({ method, path, name }) as Route;

describe('RouteMatcher', () => {
  it('finds, for any path, the row express would have: the first in table order', () => {
    // express's pattern for a row (path-to-regexp: case-insensitive, one optional trailing slash).
    const express = ROUTES.map((r) => ({
      route: r,
      regex: new RegExp(`^${r.path.replace(/\{\w+\}/g, '([^/]+)')}/?$`, 'i'),
    }));
    const matcher = new RouteMatcher(ROUTES);
    const paths = ROUTES.flatMap((r) => {
      const filled = r.path.replace(/\{\w+\}/g, 'a1');
      // Each row's path with values that are also literals elsewhere (`list`, `bulk`, `search`).
      const literals = r.path.replace(/\{\w+\}/g, (_m) => 'list');
      return [filled, literals, `${filled}/`, filled.toUpperCase(), `${filled}/extra`];
    });
    let checked = 0;
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      for (const path of paths) {
        const expected = express.find((e) => e.route.method === method && e.regex.test(path));
        const found = matcher.match(method, path);
        expect(found?.route.name, `${method} ${path}`).toBe(expected?.route.name);
        if (expected) checked++;
      }
    }
    expect(checked).toBeGreaterThan(ROUTES.length);
  });

  it('prefers the earlier row where a literal and a parameter both fit', () => {
    const m = new RouteMatcher([row('POST', '/orders/{id}'), row('POST', '/orders/list')]);
    expect(m.match('POST', '/orders/list')?.route.path).toBe('/orders/{id}');
    const n = new RouteMatcher([row('POST', '/orders/list'), row('POST', '/orders/{id}')]);
    expect(n.match('POST', '/orders/list')?.route.path).toBe('/orders/list');
    expect(n.match('POST', '/orders/x-1')?.params).toEqual({ id: 'x-1' });
  });

  it('decodes parameters, refuses bad percent-encoding with a 400, and never fits an empty one', () => {
    const m = new RouteMatcher([row('GET', '/customers/{id}/coins')]);
    expect(m.match('GET', '/customers/a%20b%2Fc/coins')?.params).toEqual({ id: 'a b/c' });
    expect(() => m.match('GET', '/customers/%ff/coins')).toThrow(
      expect.objectContaining({ name: 'URIError', status: 400 }),
    );
    expect(m.match('GET', '/customers//coins')).toBeNull();
    expect(m.match('GET', '/customers/1/coins//')).toBeNull();
    expect(m.match('GET', '/customers/1')).toBeNull();
  });

  it('serves HEAD with the GET row, and tells the methods a path allows', () => {
    const m = new RouteMatcher([
      row('GET', '/customers/{id}'),
      row('PATCH', '/customers/{id}'),
      row('POST', '/customers'),
    ]);
    expect(m.match('HEAD', '/customers/7')?.route.method).toBe('GET');
    expect(m.match('DELETE', '/customers/7')).toBeNull();
    expect(m.methodsAt('/customers/7')).toEqual(['GET', 'PATCH']);
    expect(m.methodsAt('/Customers/')).toEqual(['POST']);
    expect(m.methodsAt('/nothing')).toEqual([]);
  });
});
