// `search`: the backoffice's one search box (⌘K) over the caller's tenant (domain/search).
import { AppError } from '../../domain/errors.js';
import { SEARCH_KINDS, type SearchHit } from '../../domain/search/hit.js';
import {
  DEFAULT_PER_KIND,
  MAX_PER_KIND,
  search,
  type SearchResults,
} from '../../domain/search/search.js';
import { builder } from '../builder.js';
import { onReplica } from '../read.js';
import { tenantOf } from '../tenant.js';

const SearchKindEnum = builder.enumType('SearchKind', { values: SEARCH_KINDS });

const SearchHitRef = builder.objectRef<SearchHit>('SearchHit').implement({
  description: 'One record the search found.',
  fields: (t) => ({
    kind: t.field({ type: SearchKindEnum, resolve: (h) => h.kind }),
    id: t.exposeID('id'),
    title: t.exposeString('title', { description: 'A name, an order reference, a title.' }),
    subtitle: t.exposeString('subtitle', {
      description: 'What tells it apart: e-mail and external id, order status and total, …',
    }),
    url: t.exposeString('url', {
      nullable: true,
      description:
        'The backoffice path (under /admin) that opens it; null when no screen shows it to the caller.',
    }),
  }),
});

const SearchResultsRef = builder.objectRef<SearchResults>('SearchResults').implement({
  fields: (t) => ({
    query: t.exposeString('query', { description: 'The search, trimmed.' }),
    searched: t.field({
      type: [SearchKindEnum],
      description:
        "The kinds searched: those the caller's scopes read (customers:read, orders:read, products:read, campaigns:read). The others are left out, not refused.",
      resolve: (r) => r.searched,
    }),
    hits: t.field({
      type: [SearchHitRef],
      description:
        'Grouped by kind (customers, orders, products, campaigns), at most `first` each.',
      resolve: (r) => r.hits,
    }),
  }),
});

builder.queryFields((t) => ({
  search: t.field({
    type: SearchResultsRef,
    description:
      "One search over the caller's tenant (sub-brand and environment): customers by name, e-mail, external id or phone; orders by id, reference, reservation id, tracking code or their customer's external id or e-mail (exact); products by name; campaigns by title. Each kind only with its read scope; none of them is `forbidden`. A search shorter than 2 characters (or longer than 100) is `invalid_request`.",
    args: {
      query: t.arg.string({ required: true }),
      first: t.arg.int({
        description: `Hits per kind, 1-${MAX_PER_KIND} (default ${DEFAULT_PER_KIND}).`,
      }),
    },
    resolve: async (_root, { query, first }, ctx) => {
      if (first != null && (first < 1 || first > MAX_PER_KIND)) {
        throw new AppError('invalid_request', `first must be between 1 and ${MAX_PER_KIND}.`);
      }
      const { principal } = ctx;
      const results = principal.player
        ? null
        : await onReplica(ctx, (db) =>
            search(
              db,
              {
                tenant: tenantOf(ctx),
                scopes: principal.scopes,
                platformAdmin: principal.isPlatformAdmin,
              },
              query,
              first ?? DEFAULT_PER_KIND,
            ),
          );
      if (!results || results.searched.length === 0) {
        throw new AppError(
          'forbidden',
          principal.staff
            ? 'Your role cannot read customers, orders, products or campaigns.'
            : 'This key lacks the scope this operation needs.',
        );
      }
      return results;
    },
  }),
}));
