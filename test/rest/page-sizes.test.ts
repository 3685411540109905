// One page size per family, declared once (issue 30, domain/pages.ts): every `limit` a served
// OpenAPI document offers — a query parameter, or `pagination.limit` in a search body — has its
// family's default and maximum. A list that is a top-N, not a page, is named here with its reason.
import { describe, expect, it } from 'vitest';
import { CURSOR_PAGE, NUMBERED_PAGE } from '../../src/domain/pages.js';
import { FAMILIES } from '../../src/rest/families/index.js';
import { buildOpenApi } from '../../src/rest/openapi.js';
import { ROUTES } from '../../src/rest/table.js';

type Schema = {
  $ref?: string;
  default?: unknown;
  maximum?: number;
  properties?: Record<string, Schema>;
  anyOf?: Schema[];
};
type Operation = {
  operationId: string;
  parameters?: { name: string; in: string; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
};

/** Top-N lists: how many to show, not a page of a longer list. */
const NOT_PAGES = new Set(['get_top_customers_report', 'get_tournament_standings']);

function limitsOf(doc: Record<string, unknown>): { route: string; limit: Schema }[] {
  const components = (doc.components as { schemas?: Record<string, Schema> }).schemas ?? {};
  const resolve = (s: Schema | undefined): Schema | undefined =>
    s?.$ref ? resolve(components[s.$ref.split('/').pop()!]) : s;
  const found: { route: string; limit: Schema }[] = [];
  for (const methods of Object.values(doc.paths as Record<string, Record<string, Operation>>)) {
    for (const op of Object.values(methods)) {
      for (const p of op.parameters ?? [])
        if (p.name === 'limit' && p.in === 'query')
          found.push({ route: op.operationId, limit: p.schema });
      const body = resolve(op.requestBody?.content['application/json']?.schema);
      const pagination = resolve(body?.properties?.pagination);
      const limit = resolve(pagination?.properties?.limit);
      if (limit) found.push({ route: op.operationId, limit });
    }
  }
  return found.filter((f) => !NOT_PAGES.has(f.route));
}

describe('page sizes', () => {
  it.each([
    ['partner', CURSOR_PAGE, 4],
    ['establishment', NUMBERED_PAGE, 5],
  ] as const)('every %s list pages by its family’s size', (family, page, atLeast) => {
    const limits = limitsOf(buildOpenApi(FAMILIES[family], ROUTES, undefined));
    expect(limits.length).toBeGreaterThanOrEqual(atLeast);
    for (const { route, limit } of limits)
      expect({ route, default: limit.default, maximum: limit.maximum }).toEqual({
        route,
        default: page.defaultSize,
        maximum: page.maxSize,
      });
  });
});
