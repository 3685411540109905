// Reading and setting a sub-brand's jurisdiction (docs/compliance.md, "Jurisdiction rules"), for
// GraphQL's setJurisdiction (platform admins), the admin CLI and the backoffice. Setting UKGC is
// refused while mixed-product incentives are live (running or paused campaigns, active engine
// definitions spanning more than one vertical): the operator ends or fixes them first, so no
// incentive keeps paying under a rule it breaks. Drafts and inactive definitions do not block it;
// they are refused when they are next started, activated or edited.
import { z } from 'zod';
import type { Environment, Jurisdiction, ProductVertical } from '../../generated/prisma/enums.js';
import { inTransaction, type Db } from '../db.js';
import { AppError, notFound } from '../errors.js';
import { isUuid } from '../ids.js';
import { parseInput } from '../validation.js';
import { isMixed, JURISDICTIONS, MIXED_PRODUCT_RULE } from './rules.js';

export const jurisdictionInput = z.strictObject({ jurisdiction: z.enum(JURISDICTIONS) });

/** A live incentive spanning more than one vertical: what keeps a sub-brand from UKGC. */
export type MixedIncentive =
  | {
      kind: 'campaign';
      id: string;
      name: string;
      environment: Environment;
      status: string;
      verticals: ProductVertical[];
    }
  | { kind: 'definition'; id: string; name: string; verticals: ProductVertical[] };

export type JurisdictionView = {
  subBrandId: string;
  jurisdiction: Jurisdiction;
  /** Live mixed-product incentives: under UKGC none; elsewhere, what setting UKGC would refuse. */
  mixedIncentives: MixedIncentive[];
};

/** Running or paused campaigns (end not passed) and active definitions spanning 2+ verticals. */
export async function mixedIncentives(
  db: Db,
  subBrandId: string,
  now: Date,
): Promise<MixedIncentive[]> {
  const [campaigns, definitions] = await Promise.all([
    db.campaign.findMany({
      where: {
        subBrandId,
        deletedAt: null,
        status: { in: ['in_progress', 'paused'] },
        endsAt: { gt: now },
        verticals: { isEmpty: false },
      },
      select: { id: true, title: true, environment: true, status: true, verticals: true },
      orderBy: { id: 'asc' },
    }),
    db.eventDefinition.findMany({
      where: { subBrandId, active: true, verticals: { isEmpty: false } },
      select: { id: true, code: true, verticals: true },
      orderBy: { code: 'asc' },
    }),
  ]);
  return [
    ...campaigns
      .filter((c) => isMixed(c.verticals))
      .map((c) => ({
        kind: 'campaign' as const,
        id: c.id,
        name: c.title,
        environment: c.environment,
        status: c.status,
        verticals: c.verticals,
      })),
    ...definitions
      .filter((d) => isMixed(d.verticals))
      .map((d) => ({
        kind: 'definition' as const,
        id: d.id,
        name: d.code,
        verticals: d.verticals,
      })),
  ];
}

/** One incentive in words: `campaign 0190… "Bet and spin" (test, in_progress): casino, sports`. */
export const describeIncentive = (m: MixedIncentive): string =>
  m.kind === 'campaign'
    ? `campaign ${m.id} "${m.name}" (${m.environment}, ${m.status}): ${m.verticals.join(', ')}`
    : `event definition ${m.name} (${m.id}, active): ${m.verticals.join(', ')}`;

export async function readJurisdiction(
  db: Db,
  subBrandId: string,
  now: Date,
): Promise<JurisdictionView> {
  const row = isUuid(subBrandId)
    ? await db.subBrand.findUnique({ where: { id: subBrandId }, select: { jurisdiction: true } })
    : null;
  if (!row) throw notFound('Sub-brand');
  return {
    subBrandId,
    jurisdiction: row.jurisdiction,
    mixedIncentives: await mixedIncentives(db, subBrandId, now),
  };
}

/**
 * Sets the jurisdiction of one sub-brand (the caller has checked it is a platform admin). The
 * row is locked first (FOR NO KEY UPDATE: it waits for share locks, not for the key-share locks
 * of the tenant's ordinary inserts): a campaign or definition being made mixed at the same moment
 * holds a share lock on it (rules.ts, assertVerticalsAllowed), so it is either counted below or
 * refused by the jurisdiction set here.
 */
export async function setJurisdiction(
  db: Db,
  subBrandId: string,
  input: z.input<typeof jurisdictionInput>,
  now: Date,
): Promise<JurisdictionView> {
  const { jurisdiction } = parseInput(jurisdictionInput, input);
  if (!isUuid(subBrandId)) throw notFound('Sub-brand');
  return inTransaction(db, async (tx) => {
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM sub_brands WHERE id = ${subBrandId}::uuid FOR NO KEY UPDATE`;
    if (!locked.length) throw notFound('Sub-brand');
    const mixed = await mixedIncentives(tx, subBrandId, now);
    if (jurisdiction === 'UKGC' && mixed.length) {
      throw new AppError(
        'conflict',
        `${MIXED_PRODUCT_RULE}. UKGC cannot be set while ${mixed.length} live incentive(s) span more than one ` +
          `vertical; end them first (cancel the campaigns; deactivate the definitions or narrow them to one ` +
          `vertical): ${mixed.map(describeIncentive).join('; ')}.`,
        {
          issues: mixed.map((m) => ({
            field: 'jurisdiction',
            code: 'conflict',
            message: describeIncentive(m),
          })),
        },
      );
    }
    await tx.subBrand.update({ where: { id: subBrandId }, data: { jurisdiction } });
    return { subBrandId, jurisdiction, mixedIncentives: mixed };
  });
}
