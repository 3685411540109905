// Authoring campaigns: create, read, replace, delete, move between states, clone a template.
// The life cycle is in docs/campaigns.md; the clock is injected so tests can pass an end date.
import { z } from 'zod';
import type { Campaign, Prisma } from '../../generated/prisma/client.js';
import { inTransaction, type Db } from '../../domain/db.js';
import { AppError, invalidRequest, notFound } from '../../domain/errors.js';
import { isUuid, newId } from '../../domain/ids.js';
import { assertVerticalsAllowed, inVerticalOrder } from '../../domain/jurisdiction/rules.js';
import type { Tenant } from '../../domain/tenant.js';
import { parseInput } from '../../domain/validation.js';
import {
  campaignInput,
  endOf,
  presetWindow,
  startOf,
  statusInput,
  type CampaignInput,
} from './schemas.js';
import { completeEndedCampaigns } from './complete-campaigns.js';
import { tenantKey } from '../shared/keys.js';

const live = { deletedAt: null } as const;

/** Turns a validated input into the stored columns (dates resolved from the preset). */
function columnsOf(input: CampaignInput, now: Date) {
  const window =
    input.duration && input.duration !== 'custom'
      ? presetWindow(input.duration, now)
      : { startsAt: startOf(input.startDate!), endsAt: endOf(input.endDate!) };
  return {
    title: input.title,
    modalTitle: input.modalTitle ?? null,
    description: input.description ?? null,
    legalTerms: input.legalTerms ?? null,
    duration: input.duration ?? 'custom',
    ...window,
    type: input.type,
    multiplier: input.multiplier,
    budget: input.budget === undefined || input.budget === null ? null : BigInt(input.budget),
    termsAccepted: input.termsAccepted,
    prizes: input.prizes as unknown as Prisma.InputJsonValue,
    targeting: (input.targeting ?? {}) as Prisma.InputJsonValue,
    isTemplate: input.isTemplate,
    verticals: inVerticalOrder(input.verticals),
  };
}

/** The jurisdiction rule (docs/compliance.md) on a campaign being created, edited or started. */
const assertCampaignAllowed = (
  tx: Prisma.TransactionClient,
  tenant: Tenant,
  verticals: Campaign['verticals'],
) => assertVerticalsAllowed(tx, tenant.subBrandId, verticals, 'the campaign');

export async function createCampaign(
  db: Db,
  tenant: Tenant,
  input: unknown,
  now: Date,
): Promise<Campaign> {
  const data = parseInput(campaignInput, input);
  const columns = columnsOf(data, now);
  return inTransaction(db, async (tx) => {
    await assertCampaignAllowed(tx, tenant, columns.verticals);
    return tx.campaign.create({ data: { id: newId(), ...tenant, ...columns, createdAt: now } });
  });
}

/** A campaign of this tenant, not deleted; first brought up to date with the clock. */
export async function getCampaign(
  db: Db,
  tenant: Tenant,
  id: string,
  now: Date,
): Promise<Campaign> {
  if (!isUuid(id)) throw notFound('Campaign');
  await completeEndedCampaigns(db, now, { tenant, campaignId: id });
  const found = await db.campaign.findFirst({ where: { id, ...tenant, ...live } });
  if (!found) throw notFound('Campaign');
  return found;
}

export const campaignFilter = z.object({
  status: z.enum(['draft', 'in_progress', 'paused', 'cancelled', 'completed']).optional(),
  type: z.enum(['daily_reward_simple', 'daily_reward_progressive', 'tournament']).optional(),
  isTemplate: z.boolean().optional(),
});
export type CampaignFilter = z.input<typeof campaignFilter>;

export async function listCampaigns(
  db: Db,
  tenant: Tenant,
  filter: z.input<typeof campaignFilter>,
  now: Date,
): Promise<Campaign[]> {
  const f = parseInput(campaignFilter, filter);
  await completeEndedCampaigns(db, now, { tenant });
  return db.campaign.findMany({
    where: { ...tenant, ...live, ...f },
    orderBy: { id: 'desc' },
    take: CAMPAIGNS_LISTED,
  });
}

/** The most campaigns one list holds (the newest); countCampaigns says how many match in all. */
export const CAMPAIGNS_LISTED = 1000;

/** How many campaigns `listCampaigns` would find without its cap, counting at most `upTo`. */
export async function countCampaigns(
  db: Db,
  tenant: Tenant,
  filter: z.input<typeof campaignFilter>,
  now: Date,
  upTo: number,
): Promise<number> {
  const f = parseInput(campaignFilter, filter);
  // As the list does: a campaign past its end counts as completed, not as active.
  await completeEndedCampaigns(db, now, { tenant });
  return db.campaign.count({ where: { ...tenant, ...live, ...f }, take: upTo });
}

/**
 * Fields that may change once a campaign has started: what players read, and a larger budget.
 * Not its verticals: what qualifies is fixed for the run, as prizes and targeting are.
 */
const RUNNING_EDITABLE = new Set([
  'title',
  'modalTitle',
  'description',
  'legalTerms',
  'budget',
  'endsAt',
]);

/**
 * PUT: the whole object re-sent. A draft takes any valid change; a running or paused campaign
 * only its texts, its budget (not below what it awarded) and a later end; a cancelled or
 * completed one nothing.
 */
export async function updateCampaign(
  db: Db,
  tenant: Tenant,
  id: string,
  input: unknown,
  now: Date,
): Promise<Campaign> {
  return inTransaction(db, async (tx) => {
    // Found first: another tenant's (or environment's) campaign is not found, whatever the body.
    const current = await lockCampaign(tx, tenant, id, now);
    const data = parseInput(campaignInput, input);
    if (current.status === 'cancelled' || current.status === 'completed') {
      throw new AppError(
        'invalid_transition',
        `The campaign is ${current.status}: it can no longer be edited.`,
      );
    }
    const next = columnsOf(data, current.createdAt);
    await assertCampaignAllowed(tx, tenant, next.verticals);
    // A preset keeps the dates it resolved to when the campaign was created.
    if (data.duration && data.duration !== 'custom' && data.duration === current.duration) {
      next.startsAt = current.startsAt;
      next.endsAt = current.endsAt;
    }
    if (current.status !== 'draft') {
      const changed = (Object.keys(next) as (keyof typeof next)[]).filter(
        (k) => !RUNNING_EDITABLE.has(k) && canonical(next[k]) !== canonical(current[k]),
      );
      if (changed.length)
        throw new AppError(
          'invalid_transition',
          `The campaign is ${current.status}: only title, modalTitle, description, legalTerms, budget and a later endDate may change (not ${changed.join(', ')}).`,
        );
      if (next.endsAt < current.endsAt)
        throw invalidRequest([
          {
            field: 'endDate',
            code: 'invalid',
            message: `must not move earlier while the campaign is ${current.status}`,
          },
        ]);
    }
    if (next.budget !== null && next.budget < current.totalAwarded)
      throw invalidRequest([
        {
          field: 'budget',
          code: 'too_small',
          message: `must be at least ${current.totalAwarded}, the coins already awarded`,
        },
      ]);
    return tx.campaign.update({ where: tenantKey(current.subBrandId, current.id), data: next });
  });
}

/** A value as comparable text: jsonb reorders object keys, so keys are sorted here too. */
function canonical(v: unknown): string {
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${k}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v ?? null);
}

/** The campaign's row, locked for the rest of the transaction (status and budget moves). */
export async function lockCampaign(
  db: Db,
  tenant: Tenant,
  id: string,
  now: Date,
): Promise<Campaign> {
  if (!isUuid(id)) throw notFound('Campaign');
  await completeEndedCampaigns(db, now, { tenant, campaignId: id });
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT id FROM campaigns WHERE id = ${id}::uuid AND sub_brand_id = ${tenant.subBrandId}::uuid
      AND environment = ${tenant.environment}::environment AND deleted_at IS NULL FOR UPDATE`;
  if (!rows.length) throw notFound('Campaign');
  return db.campaign.findUniqueOrThrow({ where: tenantKey(tenant.subBrandId, id) });
}

const MOVES: Record<string, readonly string[]> = {
  draft: ['in_progress', 'cancelled'],
  in_progress: ['paused', 'cancelled'],
  paused: ['in_progress', 'cancelled'],
  cancelled: [],
  completed: [],
};

export async function updateCampaignStatus(
  db: Db,
  tenant: Tenant,
  id: string,
  input: unknown,
  now: Date,
): Promise<Campaign> {
  const { status } = parseInput(statusInput, input);
  return inTransaction(db, async (tx) => {
    const c = await lockCampaign(tx, tenant, id, now);
    if (!MOVES[c.status]!.includes(status)) {
      const allowed = MOVES[c.status]!;
      throw new AppError(
        'invalid_transition',
        `The campaign is ${c.status}: it cannot move to ${status}` +
          (allowed.length
            ? ` (from ${c.status}: ${allowed.join(', ')}).`
            : ` (${c.status} is final).`),
      );
    }
    if (status === 'in_progress' && c.isTemplate)
      throw new AppError(
        'invalid_transition',
        'The campaign is a template: templates never run; clone it first.',
      );
    if (status === 'in_progress' && c.endsAt <= now)
      throw new AppError(
        'invalid_transition',
        `The campaign is ${c.status} and its end (${c.endsAt.toISOString()}) has passed: it cannot start.`,
      );
    // Starting or resuming: the jurisdiction may have changed since the campaign was written.
    if (status === 'in_progress') await assertCampaignAllowed(tx, tenant, c.verticals);
    return tx.campaign.update({ where: tenantKey(c.subBrandId, c.id), data: { status } });
  });
}

/**
 * DELETE: a campaign that never awarded anything goes, with its facts and standings. One that
 * did is hidden instead (deleted_at), cancelled if it was running, and keeps its awards and their
 * movements: players can still claim what they won.
 */
export async function deleteCampaign(
  db: Db,
  tenant: Tenant,
  id: string,
  now: Date,
): Promise<{ campaign: Campaign; keptAwards: number }> {
  return inTransaction(db, async (tx) => {
    const c = await lockCampaign(tx, tenant, id, now);
    const keptAwards = await tx.campaignAward.count({
      where: { subBrandId: c.subBrandId, campaignId: c.id },
    });
    if (keptAwards === 0) {
      await tx.campaign.delete({ where: tenantKey(c.subBrandId, c.id) });
      // The standings went by cascade and their trigger left the counts at zero: drop the rows.
      await tx.campaignPointCount.deleteMany({
        where: { subBrandId: tenant.subBrandId, campaignId: c.id },
      });
      return { campaign: c, keptAwards };
    }
    const campaign = await tx.campaign.update({
      where: tenantKey(c.subBrandId, c.id),
      data: {
        deletedAt: now,
        status: c.status === 'completed' || c.status === 'cancelled' ? c.status : 'cancelled',
      },
    });
    return { campaign, keptAwards };
  });
}

export const cloneInput = z.object({
  title: z.string().min(1).max(200).optional(),
  startDate: z.string().optional(),
  endDate: z.string().optional(),
});

/**
 * A template's copy, a draft that can run. A preset duration resolves again from today; custom
 * dates are copied unless the body gives new ones (validated as on create).
 */
export async function cloneCampaign(
  db: Db,
  tenant: Tenant,
  id: string,
  input: unknown,
  now: Date,
): Promise<Campaign> {
  const overrides = parseInput(cloneInput, input ?? {});
  const t = await getCampaign(db, tenant, id, now);
  if (!t.isTemplate)
    throw new AppError(
      'invalid_transition',
      'The campaign is not a template (isTemplate false): only templates are cloned.',
    );
  const custom = t.duration === 'custom';
  const iso = (d: Date) => d.toISOString();
  const body = {
    title: overrides.title ?? t.title,
    modalTitle: t.modalTitle,
    description: t.description,
    legalTerms: t.legalTerms,
    duration: t.duration,
    ...(custom || overrides.startDate || overrides.endDate
      ? {
          duration: 'custom',
          startDate: overrides.startDate ?? iso(t.startsAt),
          endDate: overrides.endDate ?? iso(t.endsAt),
        }
      : {}),
    type: t.type,
    multiplier: t.multiplier,
    budget: t.budget === null ? null : Number(t.budget),
    termsAccepted: t.termsAccepted,
    prizes: t.prizes,
    targeting: t.targeting,
    isTemplate: false,
    verticals: t.verticals,
  };
  const data = parseInput(campaignInput, body);
  const columns = columnsOf(data, now);
  return inTransaction(db, async (tx) => {
    await assertCampaignAllowed(tx, tenant, columns.verticals);
    return tx.campaign.create({
      data: { id: newId(), ...tenant, ...columns, clonedFromId: t.id, createdAt: now },
    });
  });
}
