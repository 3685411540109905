// The rules of an event definition, shared by GraphQL (the backoffice) and the admin CLI.
import { z } from 'zod';
import { verticalsInput } from '../../domain/jurisdiction/rules.js';

export const MAX_POINTS = 1_000_000;

/** The constraint keys the engine knows (spec: "Constraints per definition"). */
export const CONSTRAINT_KEYS = [
  'starts_at',
  'ends_at',
  'max_daily_per_player',
  'cooldown_seconds',
] as const;

const code = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/,
    'must be 1-64 letters, digits, _ . : or -, starting with a letter or digit',
  );
const points = z
  .number()
  .int()
  .min(-MAX_POINTS)
  .max(MAX_POINTS)
  .refine((p) => p !== 0, 'must not be 0');
const fieldName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/, 'must be a field name such as externalUserId');

export const definitionFields = {
  points,
  /** Any JSON object: unknown keys are kept and make deliveries skip (see warnings). */
  constraints: z.record(z.string(), z.unknown()).optional(),
  playerIdField: fieldName.optional(),
  idempotencyKeyField: fieldName.nullish(),
  allowPointsOverride: z.boolean().optional(),
  /** The product verticals the event stands for (jurisdiction rules, docs/compliance.md). */
  verticals: verticalsInput.optional(),
};

export const createDefinitionInput = z.strictObject({
  subBrandId: z.uuid(),
  code,
  active: z.boolean().optional(),
  ...definitionFields,
});

export const updateDefinitionInput = z.strictObject({
  ...definitionFields,
  points: points.optional(),
  active: z.boolean().optional(),
});

/**
 * What would make deliveries of a definition skip with invalid_constraints: unknown keys and
 * known keys with values of the wrong kind. Shown to authors; the engine applies the same check.
 */
export function constraintProblems(constraints: unknown): string[] {
  if (!constraints || typeof constraints !== 'object' || Array.isArray(constraints))
    return ['constraints must be an object'];
  const problems: string[] = [];
  for (const [key, value] of Object.entries(constraints)) {
    switch (key) {
      case 'starts_at':
      case 'ends_at':
        if (typeof value !== 'string' || !z.iso.datetime().safeParse(value).success) {
          problems.push(`${key} must be an ISO-8601 UTC date-time ending in Z`);
        }
        break;
      case 'max_daily_per_player':
      case 'cooldown_seconds':
        if (
          !Number.isInteger(value) ||
          (value as number) < (key === 'max_daily_per_player' ? 1 : 0)
        ) {
          problems.push(
            `${key} must be a whole number${key === 'max_daily_per_player' ? ' of at least 1' : ' of at least 0'}`,
          );
        }
        break;
      default:
        problems.push(
          `${key} is not a constraint the engine knows (${CONSTRAINT_KEYS.join(', ')})`,
        );
    }
  }
  const c = constraints as Record<string, unknown>;
  if (
    typeof c.starts_at === 'string' &&
    typeof c.ends_at === 'string' &&
    !(c.starts_at < c.ends_at)
  ) {
    problems.push('starts_at must be before ends_at');
  }
  return problems;
}
