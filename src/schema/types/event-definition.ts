// Engine event definitions: authored in the backoffice (platform admin keys) per sub-brand.
import { createDefinition, updateDefinition } from '../../engine/points/author-definition.js';
import { constraintProblems } from '../../engine/points/definition-inputs.js';
import { notFound } from '../../domain/errors.js';
import { isUuid } from '../../domain/ids.js';
import { builder } from '../builder.js';
import { checkedByDomain, definedInput } from '../inputs.js';
import { effect } from '../effects.js';
import { ProductVerticalEnum } from './jurisdiction.js';

builder.prismaObject('EventDefinition', {
  description: 'What a delivered event is worth to a player, and when.',
  fields: (t) => ({
    id: t.exposeID('id'),
    subBrandId: t.exposeID('subBrandId'),
    code: t.exposeString('code'),
    points: t.exposeInt('points', {
      description: 'Signed coins per delivery: negative removes coins.',
    }),
    constraints: t.expose('constraints', {
      type: 'JSON',
      description: 'starts_at, ends_at, max_daily_per_player, cooldown_seconds.',
    }),
    warnings: t.stringList({
      description: 'Why deliveries would be skipped with invalid_constraints; empty when none.',
      resolve: (d) => constraintProblems(d.constraints),
    }),
    playerIdField: t.exposeString('playerIdField'),
    idempotencyKeyField: t.exposeString('idempotencyKeyField', {
      nullable: true,
      description: 'Null: event_id, then id.',
    }),
    allowPointsOverride: t.exposeBoolean('allowPointsOverride'),
    verticals: t.expose('verticals', {
      type: [ProductVerticalEnum],
      description: 'The product verticals the event stands for (UKGC: at most one).',
    }),
    active: t.exposeBoolean('active'),
    version: t.exposeInt('version'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

builder.queryFields((t) => ({
  eventConstraintWarnings: t.stringList({
    description:
      "What the definition's warnings would say of these constraints, without saving them (the backoffice's constraint editor).",
    authScopes: { admin: true },
    args: { constraints: t.arg({ type: 'JSON', required: true }) },
    resolve: (_root, { constraints }) => constraintProblems(constraints),
  }),
  eventDefinitions: t.prismaConnection({
    type: 'EventDefinition',
    cursor: 'id',
    authScopes: { admin: true },
    args: { subBrandId: t.arg.id({ required: true }) },
    resolve: (query, _root, { subBrandId }, ctx) =>
      isUuid(String(subBrandId))
        ? ctx.db.eventDefinition.findMany({
            ...query,
            where: { subBrandId: String(subBrandId) },
            orderBy: { id: 'desc' },
          })
        : [],
  }),
  eventDefinition: t.prismaField({
    type: 'EventDefinition',
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      const found = isUuid(String(id))
        ? await ctx.db.eventDefinition.findUnique({ ...query, where: { id: String(id) } })
        : null;
      if (!found) throw notFound('Event definition');
      return found;
    },
  }),
}));

const CreateInput = builder.inputType('CreateEventDefinitionInput', {
  fields: (t) => ({
    subBrandId: t.id({ required: true }),
    code: t.string({ required: true }),
    points: t.int({ required: true, description: 'Non-zero, within ±1,000,000.' }),
    constraints: t.field({
      type: 'JSON',
      description: 'A JSON object: starts_at, ends_at, max_daily_per_player, cooldown_seconds.',
    }),
    playerIdField: t.string({
      description: 'The data field holding the player id (default externalUserId).',
    }),
    idempotencyKeyField: t.string({
      description: "The webhook payload's id field (default event_id, then id).",
    }),
    allowPointsOverride: t.boolean({ description: 'Whether deliveries may send points_override.' }),
    verticals: t.field({
      type: [ProductVerticalEnum],
      description: 'Each at most once; default none. A UKGC sub-brand takes at most one.',
    }),
    active: t.boolean({ description: 'Default true.' }),
  }),
});

const UpdateInput = builder.inputType('UpdateEventDefinitionInput', {
  description: 'Omitted fields stay. Past executions keep the snapshot they ran against.',
  fields: (t) => ({
    points: t.int(),
    constraints: t.field({ type: 'JSON' }),
    playerIdField: t.string(),
    idempotencyKeyField: t.string({
      description: 'Null restores the default (event_id, then id).',
    }),
    allowPointsOverride: t.boolean(),
    verticals: t.field({ type: [ProductVerticalEnum], description: 'Replaces the list.' }),
    active: t.boolean({
      description:
        'Activating a definition that spans more than one vertical is refused under UKGC.',
    }),
  }),
});

builder.mutationFields((t) => ({
  createEventDefinition: t.prismaField({
    extensions: effect('creates'),
    type: 'EventDefinition',
    authScopes: { admin: true },
    args: { input: t.arg({ type: CreateInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const created = await createDefinition(ctx.db, {
        ...definedInput(input),
        constraints: checkedByDomain(input.constraints ?? undefined),
      });
      return ctx.db.eventDefinition.findUniqueOrThrow({ ...query, where: { id: created.id } });
    },
  }),
  updateEventDefinition: t.prismaField({
    extensions: effect('changes'),
    type: 'EventDefinition',
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateInput, required: true }) },
    resolve: async (query, _root, { id, input }, ctx) => {
      const updated = await updateDefinition(ctx.db, String(id), {
        // GraphQL nulls of fields that cannot be null mean "unchanged"; this one's unsets it.
        ...definedInput(input, ['idempotencyKeyField']),
        constraints: checkedByDomain(input.constraints ?? undefined),
      });
      return ctx.db.eventDefinition.findUniqueOrThrow({ ...query, where: { id: updated.id } });
    },
  }),
  deactivateEventDefinition: t.prismaField({
    extensions: effect('changes'),
    type: 'EventDefinition',
    authScopes: { admin: true },
    description: 'Stops deliveries of this code (they answer 404); executions stay.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      const updated = await updateDefinition(ctx.db, String(id), { active: false });
      return ctx.db.eventDefinition.findUniqueOrThrow({ ...query, where: { id: updated.id } });
    },
  }),
}));
