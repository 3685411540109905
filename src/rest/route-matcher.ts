// Finds the route table's row for a method and path, as express's router would (first row in
// table order wins; literal segments compared without case; a parameter is one non-empty
// segment, percent-decoded; one trailing slash allowed; HEAD served by GET), in one pass over
// the few rows of the same method and length instead of one regular expression per row (with
// the body reader, express's share of a coin adjustment's server CPU went from 30 % to 7 %,
// docs/performance.md).
import type { HttpMethod, Route } from './route.js';

type Segment = { literal: string } | { param: string };
type Compiled = { route: Route; segments: Segment[] };

export type RouteMatch = { route: Route; params: Record<string, string> };

export class RouteMatcher {
  /** `METHOD segment-count` → the rows of that shape, in table order. */
  private readonly byShape = new Map<string, Compiled[]>();
  /** segment count → every row of that length, for the methods a path allows (405, OPTIONS). */
  private readonly byLength = new Map<number, Compiled[]>();

  constructor(routes: readonly Route[]) {
    for (const route of routes) {
      const segments = splitPath(route.path).map((s): Segment =>
        /^\{\w+\}$/.test(s) ? { param: s.slice(1, -1) } : { literal: s.toLowerCase() },
      );
      const compiled = { route, segments };
      pushTo(this.byShape, `${route.method} ${segments.length}`, compiled);
      pushTo(this.byLength, segments.length, compiled);
    }
  }

  /**
   * The row and its decoded parameters, or null. A parameter that is not valid percent-encoding
   * throws a URIError with status 400, as express's router does (answered invalid_request).
   */
  match(method: string, path: string): RouteMatch | null {
    const segments = splitPath(path);
    const rows =
      this.byShape.get(`${method} ${segments.length}`) ??
      (method === 'HEAD' ? this.byShape.get(`GET ${segments.length}`) : undefined);
    if (!rows) return null;
    for (const row of rows) {
      if (!fits(row, segments)) continue;
      const params: Record<string, string> = {};
      row.segments.forEach((s, i) => {
        if ('param' in s) params[s.param] = decodeParam(segments[i]!);
      });
      return { route: row.route, params };
    }
    return null;
  }

  /** The methods some row serves at this path (empty when no row has it), in table order. */
  methodsAt(path: string): HttpMethod[] {
    const segments = splitPath(path);
    const rows = this.byLength.get(segments.length) ?? [];
    return [...new Set(rows.filter((row) => fits(row, segments)).map((row) => row.route.method))];
  }
}

/** `/a/b/` → ['a', 'b']; an empty segment (`/a//b`) stays and matches nothing. */
function splitPath(path: string): string[] {
  const trimmed = path.endsWith('/') && path.length > 1 ? path.slice(0, -1) : path;
  return trimmed.split('/').slice(1);
}

function fits(row: Compiled, segments: string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const s = row.segments[i]!;
    const given = segments[i]!;
    if ('literal' in s ? s.literal !== given.toLowerCase() : given === '') return false;
  }
  return true;
}

function decodeParam(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch (error) {
    if (error instanceof URIError) Object.assign(error, { status: 400 });
    throw error;
  }
}

function pushTo<K>(map: Map<K, Compiled[]>, key: K, value: Compiled) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
