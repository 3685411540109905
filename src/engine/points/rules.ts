// The business rules of a definition, as pure functions: the pipeline and the simulator share them.
import { constraintProblems } from './definition-inputs.js';

export type Constraints = {
  starts_at?: string;
  ends_at?: string;
  max_daily_per_player?: number;
  cooldown_seconds?: number;
};

export type RuleOutcome =
  | { skip: null }
  | {
      skip:
        'invalid_constraints' | 'outside_active_window' | 'max_daily_reached' | 'cooldown_active';
      why: string;
    };

/** Start of the UTC day of an instant: daily caps count per UTC day. */
export { utcDayStart } from '../shared/clock.js';

/** Rules that need no history: the constraints are valid and `now` is inside the window. */
export function checkStatic(constraints: unknown, now: Date): RuleOutcome {
  const problems = constraintProblems(constraints);
  if (problems.length) return { skip: 'invalid_constraints', why: problems.join('; ') };
  const c = constraints as Constraints;
  if (c.starts_at && now < new Date(c.starts_at))
    return { skip: 'outside_active_window', why: `the definition starts at ${c.starts_at}` };
  if (c.ends_at && now >= new Date(c.ends_at))
    return { skip: 'outside_active_window', why: `the definition ended at ${c.ends_at}` };
  return { skip: null };
}

/** Rules over the player's history with this definition (completed grants only). */
export function checkHistory(
  constraints: Constraints,
  now: Date,
  history: { completedToday: number; lastCompletedAt: Date | null },
): RuleOutcome {
  const cap = constraints.max_daily_per_player;
  if (cap !== undefined && history.completedToday >= cap) {
    return {
      skip: 'max_daily_reached',
      why: `the player already had ${history.completedToday} of ${cap} grants today (UTC)`,
    };
  }
  const cooldown = constraints.cooldown_seconds;
  if (
    cooldown &&
    history.lastCompletedAt &&
    now.getTime() - history.lastCompletedAt.getTime() < cooldown * 1000
  ) {
    const left = Math.ceil(
      (cooldown * 1000 - (now.getTime() - history.lastCompletedAt.getTime())) / 1000,
    );
    return {
      skip: 'cooldown_active',
      why: `the player's cooldown of ${cooldown} s has ${left} s left`,
    };
  }
  return { skip: null };
}
