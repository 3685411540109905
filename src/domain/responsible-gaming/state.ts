// A customer's responsible-gaming state (docs/compliance.md): `none`, `cool_off`, `self_excluded`
// or `limit_reached`, until a time (self-exclusion may be indefinite). The customer row holds the
// current state, which the gate reads in the transaction that would pay; `rg_changes` holds every
// change, who made it and why, and is never updated.
import { z } from 'zod';
import type { RgSource, RgState } from '../../generated/prisma/enums.js';
import { inTransaction, type Db } from '../db.js';
import { AppError, notFound } from '../errors.js';
import { blockOf } from './gate.js';
import { recordEvent } from '../events/record-event.js';
import { isUuid, newId } from '../ids.js';
import type { Actor, Tenant } from '../tenant.js';
import { parseInput } from '../validation.js';

export const RG_STATES = ['none', 'cool_off', 'self_excluded', 'limit_reached'] as const;
export const RG_SOURCES = ['operator', 'player', 'regulator'] as const;

/** The longest a dated state may last: ten years, beyond which "indefinite" is the honest word. */
const MAX_YEARS = 10;

export const rgStateInput = z.strictObject({
  state: z.enum(RG_STATES),
  until: z.iso
    .datetime()
    .nullish()
    .describe(
      'When the state ends: required for cool_off and limit_reached, optional for self_excluded ' +
        '(absent: indefinite), not taken with none.',
    ),
  source: z
    .enum(RG_SOURCES)
    .default('operator')
    .describe('Who asked: operator, player or regulator.'),
  note: z.string().trim().max(500).nullish(),
  reason: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .nullish()
    .describe('Required to shorten or lift an active state (brand admins only).'),
});
export type RgStateInput = z.input<typeof rgStateInput>;

/** Where a change came from, and whether it may relax an active state. */
export type RgChanger = Actor & {
  via: 'api' | 'backoffice' | 'cli';
  /** A brand admin or platform admin (a person), or the CLI: the only ones who may relax. */
  mayRelax: boolean;
};

type Row = { rgState: RgState; rgUntil: Date | null };

/** The state in force at `now`: a dated state past its end is `none`. */
export function effectiveRg(row: Row, now: Date): { state: RgState; until: Date | null } {
  // The gate's own rule of what is in force, so reads and refusals never disagree.
  return blockOf({ rg_state: row.rgState, rg_until: row.rgUntil }, now) ?? NONE;
}
const NONE = { state: 'none', until: null } as const;

/** How protective a state is: a change to a lower rank, or to an earlier end, relaxes it. */
const RANK: Record<RgState, number> = { none: 0, limit_reached: 1, cool_off: 2, self_excluded: 3 };
const end = (s: { state: RgState; until: Date | null }, now: Date) =>
  s.state === 'none' ? now.getTime() : (s.until?.getTime() ?? Number.POSITIVE_INFINITY);

export function relaxes(
  from: { state: RgState; until: Date | null },
  to: { state: RgState; until: Date | null },
  now: Date,
): boolean {
  if (from.state === 'none') return false;
  return RANK[to.state] < RANK[from.state] || end(to, now) < end(from, now);
}

function invalid(field: string, message: string): AppError {
  return new AppError('invalid_request', `${field}: ${message}`, {
    issues: [{ field, code: 'invalid', message }],
  });
}

/** Checks the input's rules beyond its shape; returns the state to write. */
function target(input: z.output<typeof rgStateInput>, now: Date) {
  const until = input.until ? new Date(input.until) : null;
  if (input.state === 'none') {
    if (until) throw invalid('until', 'is not taken with state none');
    return { state: input.state, until: null };
  }
  if (!until && input.state !== 'self_excluded')
    throw new AppError('invalid_request', `until: is required for ${input.state}`, {
      issues: [{ field: 'until', code: 'required', message: `is required for ${input.state}` }],
    });
  if (until && until <= now) throw invalid('until', 'must be in the future');
  const limit = new Date(now);
  limit.setUTCFullYear(limit.getUTCFullYear() + MAX_YEARS);
  if (until && until > limit)
    throw invalid(
      'until',
      `must be within ${MAX_YEARS} years; omit it for an indefinite self-exclusion`,
    );
  return { state: input.state, until };
}

/**
 * Sets a customer's state and records the change. Setting or extending is open to whoever holds
 * the scope; shortening or lifting an active state needs `mayRelax` and a reason, and no API key
 * may lift or shorten a self-exclusion.
 */
export async function setResponsibleGaming(
  db: Db,
  tenant: Tenant,
  customerId: string,
  raw: unknown,
  by: RgChanger,
  now: Date = new Date(),
) {
  const input = parseInput(rgStateInput, raw);
  const next = target(input, now);
  if (!isUuid(customerId)) throw notFound('Customer');
  return inTransaction(db, async (tx) => {
    // The row lock orders this change against every incentive in flight: the gate reads the
    // same row FOR SHARE in the transaction that would pay (gate.ts).
    const rows = await tx.$queryRaw<Row[]>`
      SELECT rg_state AS "rgState", rg_until AS "rgUntil" FROM customers
      WHERE sub_brand_id = ${tenant.subBrandId}::uuid AND environment = ${tenant.environment}::environment
        AND id = ${customerId}::uuid
      FOR UPDATE`;
    const row = rows[0];
    if (!row) throw notFound('Customer');
    const current = effectiveRg(row, now);
    if (relaxes(current, next, now)) {
      if (!by.mayRelax)
        throw new AppError(
          'forbidden',
          by.via === 'api'
            ? current.state === 'self_excluded'
              ? 'A self-exclusion cannot be lifted or shortened through an API key: a brand admin does it in the backoffice, with a reason.'
              : 'An API key cannot shorten or lift an active state: a brand admin does it in the backoffice, with a reason.'
            : 'Only a brand admin may shorten or lift an active state, with a reason.',
        );
      if (!input.reason)
        throw new AppError(
          'invalid_request',
          'reason: is required to shorten or lift an active state',
          {
            issues: [
              {
                field: 'reason',
                code: 'required',
                message: 'is required to shorten or lift an active state',
              },
            ],
          },
        );
    }
    const source: RgSource = input.source;
    const updated = await tx.customer.update({
      where: { id: customerId },
      data: {
        rgState: next.state,
        rgUntil: next.until,
        rgSource: next.state === 'none' ? null : source,
        rgSince: now,
      },
    });
    await tx.rgChange.create({
      data: {
        id: newId(),
        ...tenant,
        customerId,
        state: next.state,
        until: next.until,
        source,
        note: input.note ?? null,
        reason: input.reason ?? null,
        previousState: current.state,
        previousUntil: current.until,
        via: by.via,
        apiKeyId: by.apiKeyId,
        staffUserId: by.staffUserId ?? null,
        requestId: by.requestId,
        createdAt: now,
      },
    });
    await recordEvent(tx, tenant, 'customer.updated', customerId);
    return updated;
  });
}

/** A customer's changes, newest first. */
export async function rgHistory(db: Db, tenant: Tenant, customerId: string, take = 50) {
  if (!isUuid(customerId)) throw notFound('Customer');
  return db.rgChange.findMany({
    where: { ...tenant, customerId },
    orderBy: { id: 'desc' },
    take,
  });
}
