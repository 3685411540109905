// Timelines (issue 35): Customer.timeline and Order.timeline, newest first, paged by an opaque
// cursor (domain/timeline.ts).
import { customerTimeline } from '../../domain/customers/timeline.js';
import { orderTimeline } from '../../domain/orders/timeline.js';
import { TIMELINE_KINDS, type TimelineEntry, type TimelinePage } from '../../domain/timeline.js';
import { builder } from '../builder.js';
import { tenantOf } from '../tenant.js';

const TimelineKindEnum = builder.enumType('TimelineKind', {
  description: 'What a timeline entry is about.',
  values: TIMELINE_KINDS,
});

const TimelineEntryRef = builder.objectRef<TimelineEntry>('TimelineEntry').implement({
  description: 'One thing that happened to a player, in words.',
  fields: (t) => ({
    kind: t.field({ type: TimelineKindEnum, resolve: (e) => e.kind }),
    at: t.expose('at', { type: 'DateTime' }),
    id: t.exposeID('id', { description: 'Unique within the timeline: the source and its row id.' }),
    title: t.exposeString('title'),
    detail: t.exposeString('detail', { nullable: true }),
    linkPath: t.exposeString('linkPath', {
      nullable: true,
      description: 'A backoffice path that shows more, when there is one.',
    }),
  }),
});

const TimelinePageRef = builder.objectRef<TimelinePage>('Timeline').implement({
  fields: (t) => ({
    entries: t.field({ type: [TimelineEntryRef], resolve: (p) => p.entries }),
    nextCursor: t.exposeString('nextCursor', {
      nullable: true,
      description: 'Pass as `after` for the next (older) page; null on the last page.',
    }),
  }),
});

builder.prismaObjectField('Customer', 'timeline', (t) =>
  t.field({
    type: TimelinePageRef,
    description:
      'What happened to the player, newest first: coin movements (expiry write-offs among them), orders and their status changes, campaign awards and claims, e-mails, responsible-gaming changes and staff audit entries about it.',
    authScopes: { scope: 'customers:read', admin: true },
    args: {
      first: t.arg.int({ defaultValue: 25, description: '1 to 100.' }),
      after: t.arg.string({ description: 'The previous page’s nextCursor.' }),
    },
    resolve: (c, { first, after }, ctx) =>
      customerTimeline(ctx.db, tenantOf(ctx), c.id, { first, after }),
  }),
);

builder.prismaObjectField('Order', 'timeline', (t) =>
  t.field({
    type: TimelinePageRef,
    description:
      'What happened to the order, newest first: placed, each status change, shipping, billing and tracking changes (with who made them), its coin debit and refund, its e-mails and staff audit entries about it.',
    authScopes: { scope: 'orders:read', admin: true },
    args: {
      first: t.arg.int({ defaultValue: 25, description: '1 to 100.' }),
      after: t.arg.string({ description: 'The previous page’s nextCursor.' }),
    },
    select: { subBrandId: true, environment: true, customerId: true },
    resolve: (o, { first, after }, ctx) => orderTimeline(ctx.db, o, { first, after }),
  }),
);
