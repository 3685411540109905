// `npm run admin -- definition …`: a sub-brand's engine event definitions (docs/engine.md), over
// the same domain functions as the backoffice. An edit bumps the version; executions keep the
// version they ran with.
import { createDefinition, updateDefinition } from '../engine/points/author-definition.js';
import { getDefinition, listDefinitions } from '../engine/points/read-definitions.js';
import { getSubBrand } from '../domain/tenancy/read-tenancy.js';
import type { CommandName } from './usage.js';
import { describe, json, lines, list, optional, signedInt, str, type Command } from './command.js';

type DefinitionCommandName = Extract<CommandName, `definition ${string}`>;

const definitionJson = (d: Awaited<ReturnType<typeof getDefinition>>) => ({
  id: d.id,
  sub_brand_id: d.subBrandId,
  code: d.code,
  points: d.points,
  constraints: d.constraints,
  player_id_field: d.playerIdField,
  idempotency_key_field: d.idempotencyKeyField,
  allow_points_override: d.allowPointsOverride,
  verticals: d.verticals,
  active: d.active,
  version: d.version,
  updated_at: d.updatedAt.toISOString(),
});

export const DEFINITION_COMMANDS: Record<DefinitionCommandName, Command> = {
  'definition create': {
    options: {
      'sub-brand': { type: 'string' },
      code: { type: 'string' },
      points: { type: 'string' },
      constraints: { type: 'string' },
      'player-id-field': { type: 'string' },
      'idempotency-key-field': { type: 'string' },
      'allow-points-override': { type: 'boolean' },
      verticals: { type: 'string' },
      inactive: { type: 'boolean' },
    },
    async run(db, v) {
      const created = await createDefinition(db, {
        subBrandId: str(v, 'sub-brand'),
        code: str(v, 'code'),
        points: signedInt(v, 'points')!,
        constraints: json(v, 'constraints'),
        playerIdField: optional(v, 'player-id-field'),
        idempotencyKeyField: optional(v, 'idempotency-key-field'),
        allowPointsOverride: v['allow-points-override'] === true,
        verticals: list(optional(v, 'verticals')) as never,
        active: v.inactive !== true,
      });
      return {
        json: { id: created.id, code: created.code },
        text: `Event definition ${created.code} (${created.id}) created.`,
      };
    },
  },
  'definition list': {
    options: { 'sub-brand': { type: 'string' }, active: { type: 'boolean' } },
    async run(db, v) {
      const subBrandId = str(v, 'sub-brand');
      await getSubBrand(db, subBrandId); // an unknown sub-brand is an error, not an empty list
      const rows = (await listDefinitions(db, { subBrandId, activeOnly: v.active === true })).map(
        definitionJson,
      );
      return {
        json: { definitions: rows },
        text: lines(
          rows,
          (d) =>
            `${d.id}  ${d.code}  ${d.points} points  v${d.version}${d.active ? '' : '  (inactive)'}`,
          'No event definitions.',
        ),
      };
    },
  },
  'definition show': {
    options: {},
    positionals: 1,
    async run(db, _v, [id]) {
      const json = definitionJson(await getDefinition(db, id!));
      return { json, text: describe(json) };
    },
  },
  'definition update': {
    options: {
      points: { type: 'string' },
      constraints: { type: 'string' },
      'player-id-field': { type: 'string' },
      'idempotency-key-field': { type: 'string' },
      'allow-points-override': { type: 'boolean' },
      'no-points-override': { type: 'boolean' },
      verticals: { type: 'string' },
      active: { type: 'boolean' },
      inactive: { type: 'boolean' },
    },
    positionals: 1,
    async run(db, v, [id]) {
      const flag = (on: string, off: string) =>
        v[on] === true ? true : v[off] === true ? false : undefined;
      const updated = await updateDefinition(db, id!, {
        points: signedInt(v, 'points'),
        constraints: json(v, 'constraints'),
        playerIdField: optional(v, 'player-id-field'),
        idempotencyKeyField: optional(v, 'idempotency-key-field'),
        allowPointsOverride: flag('allow-points-override', 'no-points-override'),
        verticals: list(optional(v, 'verticals')) as never,
        active: flag('active', 'inactive'),
      });
      return {
        json: {
          id: updated.id,
          code: updated.code,
          version: updated.version,
          active: updated.active,
        },
        text: `Event definition ${updated.code} is now at version ${updated.version}.`,
      };
    },
  },
  'definition deactivate': {
    options: {},
    positionals: 1,
    async run(db, _v, [id]) {
      const updated = await updateDefinition(db, id!, { active: false });
      return {
        json: { id: updated.id, code: updated.code, active: false },
        text: `Event definition ${updated.code} deactivated.`,
      };
    },
  },
};
