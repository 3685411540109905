// The two API families (family.ts says what a family decides).
import type { ApiFamily, Route } from '../route.js';
import { establishment } from './establishment.js';
import type { Family } from './family.js';
import { partner } from './partner.js';

export type { Family } from './family.js';

export const FAMILIES: Record<ApiFamily, Family> = { partner, establishment };

/**
 * The family that answers an error outside a route row (a 404 for an unknown path, a 401 on
 * GraphQL): the establishment shape under the first segments its routes use (`/players/…`) and
 * under `establishmentRoots` (public paths served beside the table: `/fairness/…`), the partner
 * envelope everywhere else (the partner API, MCP, GraphQL, unknown paths).
 */
export function familyOfPath(
  routes: Route[],
  establishmentRoots: string[] = [],
): (path: string) => Family {
  const roots = new Set([
    ...routes.filter((r) => r.family === 'establishment').map((r) => r.path.split('/')[1]),
    ...establishmentRoots,
  ]);
  return (path) => (roots.has(path.split('/')[1]) ? establishment : partner);
}
