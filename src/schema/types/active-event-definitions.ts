// What a partner needs to send engine events: the codes of its sub-brand's active definitions and
// their rules (docs/engine.md). Authoring stays with operators (event-definition.ts).
import { z } from 'zod';
import { listDefinitions } from '../../engine/points/read-definitions.js';
import { builder } from '../builder.js';
import { tenantOf } from '../tenant.js';
import { ProductVerticalEnum } from './jurisdiction.js';

type ActiveDefinition = Awaited<ReturnType<typeof listDefinitions>>[number];

const ActiveEventDefinitionRef = builder
  .objectRef<ActiveDefinition>('ActiveEventDefinition')
  .implement({
    description: 'An active event definition, as a partner sending events sees it.',
    fields: (t) => ({
      code: t.exposeString('code', { description: 'The event_code to send.' }),
      points: t.exposeInt('points', {
        description: 'Coins granted (negative: removed) per event.',
      }),
      playerIdField: t.exposeString('playerIdField', {
        description: "The field of the event's data that holds the player's external_id.",
      }),
      idempotencyKeyField: t.exposeString('idempotencyKeyField', {
        nullable: true,
        description:
          'Webhooks: the payload field used as the idempotency key (null: event_id, then id).',
      }),
      allowPointsOverride: t.exposeBoolean('allowPointsOverride'),
      constraints: t.field({
        type: 'JSON',
        description: 'starts_at, ends_at, max_daily_per_player, cooldown_seconds, as set.',
        extensions: { jsonShape: z.record(z.string(), z.unknown()) },
        resolve: (d) => d.constraints,
      }),
      version: t.exposeInt('version'),
      verticals: t.field({
        type: [ProductVerticalEnum],
        description: 'The product verticals the event stands for.',
        resolve: (d) => d.verticals,
      }),
    }),
  });

builder.queryField('activeEventDefinitions', (t) =>
  t.field({
    type: [ActiveEventDefinitionRef],
    authScopes: { scope: 'engine:events' },
    description: "The calling sub-brand's active event definitions, by code.",
    resolve: (_root, _args, ctx) =>
      listDefinitions(ctx.db, { subBrandId: tenantOf(ctx).subBrandId, activeOnly: true }),
  }),
);
