// What every admin command is made of: its flags and how they are read, the usage error (exit 2)
// and the shapes of its output. Shared by commands.ts and its command groups (*-commands.ts).
import type { Db } from '../domain/db.js';

export type Values = Record<string, string | boolean | undefined>;
/**
 * What the operator's CLI process read for a command besides its arguments (a password from its
 * environment or its terminal), handed to the server with the arguments when the server runs
 * the command (admin-socket.ts): the server's own environment and terminal are not the operator's.
 */
export type Secrets = { password?: string };
export type Command = {
  options: Record<string, { type: 'string' | 'boolean' }>;
  positionals?: number;
  run(
    db: Db,
    values: Values,
    positionals: string[],
    secrets: Secrets,
  ): Promise<{ json: Record<string, unknown>; text: string }>;
};

export class UsageError extends Error {}

export const str = (values: Values, name: string): string => {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
};
export const optional = (values: Values, name: string): string | undefined =>
  typeof values[name] === 'string' ? (values[name] as string) : undefined;
export const int = (values: Values, name: string): number | undefined => {
  const value = optional(values, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a positive whole number`);
  return Number(value);
};
export const signedInt = (values: Values, name: string): number | undefined => {
  const value = optional(values, name);
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
  return Number(value);
};
export const json = (values: Values, name: string): Record<string, unknown> | undefined => {
  const value = optional(values, name);
  if (value === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new Error('not an object');
    return parsed as Record<string, unknown>;
  } catch {
    throw new UsageError(`--${name} must be a JSON object, e.g. '{"max_daily_per_player":3}'`);
  }
};
export const list = (value: string | undefined): string[] | undefined =>
  value === undefined
    ? undefined
    : value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
export const env = (values: Values): 'live' | 'test' => {
  const value = str(values, 'env');
  if (value !== 'live' && value !== 'test') throw new UsageError('--env must be live or test');
  return value;
};

/** One line per row, or a sentence when there are none. */
export const lines = <T>(rows: T[], line: (row: T) => string, none: string): string =>
  rows.length ? rows.map(line).join('\n') : none;
/** A record as `field: value` lines, for people; --json gives the same fields to programs. */
export const describe = (record: Record<string, unknown>): string =>
  Object.entries(record)
    .map(([k, v]) => `${k}: ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
    .join('\n');
export const iso = (d: Date | null) => (d ? d.toISOString() : null);
