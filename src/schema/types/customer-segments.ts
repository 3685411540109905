// The segments in use (issue 32): an agent asked to credit "the VIP tier" must learn which
// segment_id values exist before it filters by one. segment_id is the partner's free text, so
// this reads the values as they are, with how many customers hold each.
import { builder } from '../builder.js';
import { tenantOf } from '../tenant.js';

type Segment = { segmentId: string; customers: number };

const SegmentRef = builder.objectRef<Segment>('CustomerSegment').implement({
  description: 'A segment_id in use and how many customers of the key hold it.',
  fields: (t) => ({
    segmentId: t.exposeString('segmentId'),
    customers: t.exposeInt('customers'),
  }),
});

/** At most this many segments, the largest first: a grouping, not a list of customers. */
export const MAX_SEGMENTS = 500;

builder.queryFields((t) => ({
  customerSegments: t.field({
    type: [SegmentRef],
    description: `The key's segment_id values with their customer counts, largest first (at most ${MAX_SEGMENTS}).`,
    authScopes: { scope: 'customers:read' },
    resolve: async (_root, _args, ctx) => {
      const tenant = tenantOf(ctx);
      // One pass over the (tenant, segment_id, id) index.
      const groups = await ctx.db.customer.groupBy({
        by: ['segmentId'],
        where: { ...tenant, segmentId: { not: null } },
        _count: { _all: true },
        orderBy: [{ _count: { segmentId: 'desc' } }, { segmentId: 'asc' }],
        take: MAX_SEGMENTS,
      });
      return groups.map((g) => ({ segmentId: g.segmentId!, customers: g._count._all }));
    },
  }),
}));
