// Jurisdiction rules (docs/compliance.md, "Jurisdiction rules"). A sub-brand answers to one
// regulator (`none`, `UKGC`, `MGA`; platform admins set it), and every campaign and engine event
// definition names the product verticals its qualifying activity spans. One rule follows: under
// UKGC an incentive may not span more than one vertical (the UK Gambling Commission's ban on
// mixed-product incentives: LCCP social responsibility code provision 5.1.1(3)(b), as amended
// with effect from 19 January 2026). MGA and none have no vertical rule.
import { z } from 'zod';
import type { Jurisdiction, ProductVertical } from '../../generated/prisma/enums.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { AppError } from '../errors.js';

export const JURISDICTIONS = ['none', 'UKGC', 'MGA'] as const satisfies readonly Jurisdiction[];
export const PRODUCT_VERTICALS = [
  'casino',
  'sports',
  'poker',
  'bingo',
  'lottery',
] as const satisfies readonly ProductVertical[];

/** A campaign's or a definition's verticals: each of the five at most once. */
export const verticalsInput = z
  .array(z.enum(PRODUCT_VERTICALS))
  .max(PRODUCT_VERTICALS.length)
  .refine((v) => new Set(v).size === v.length, {
    message: 'must not name a vertical twice',
    params: { rule: 'invalid' },
  })
  .meta({ uniqueItems: true })
  .describe(
    'The product verticals whose play qualifies (casino, sports, poker, bingo, lottery). Under a UKGC ' +
      'sub-brand at most one: mixed-product incentives are refused (docs/compliance.md).',
  );

/** Verticals as stored: in the order of PRODUCT_VERTICALS, so a reordering is not a change. */
export const inVerticalOrder = <V extends ProductVertical>(verticals: readonly V[]): V[] =>
  [...verticals].sort((a, b) => PRODUCT_VERTICALS.indexOf(a) - PRODUCT_VERTICALS.indexOf(b));

/** The rule's name, as every refusal starts with it. */
export const MIXED_PRODUCT_RULE =
  'UKGC mixed-product rule (LCCP social responsibility code 5.1.1(3)(b), from 19 January 2026): an incentive may not require play on more than one product vertical';

/** Whether verticals make a mixed-product incentive: more than one. */
export const isMixed = (verticals: readonly string[]): boolean => new Set(verticals).size > 1;

/** The 400 a mixed-product incentive gets under UKGC, naming the rule and the verticals. */
export function mixedProductRefusal(subject: string, verticals: readonly string[]): AppError {
  const message = `UKGC: ${subject} spans ${verticals.join(', ')}, a mixed-product incentive; name at most one vertical`;
  return new AppError('invalid_request', `${MIXED_PRODUCT_RULE}. ${message}.`, {
    issues: [{ field: 'verticals', code: 'conflict', message }],
  });
}

/**
 * Throws when the sub-brand's jurisdiction refuses an incentive spanning `verticals`; call it in
 * the transaction that writes (or starts) the incentive. Mixed verticals read the jurisdiction
 * under a share lock on the sub-brand's row, held to the end of that transaction, so a
 * jurisdiction being set at the same moment (setJurisdiction locks the row FOR NO KEY UPDATE) either
 * waits for this write and then counts it, or is seen by this check: the two never both pass.
 */
export async function assertVerticalsAllowed(
  tx: Prisma.TransactionClient,
  subBrandId: string,
  verticals: readonly ProductVertical[],
  subject: string,
): Promise<void> {
  if (!isMixed(verticals)) return;
  const [row] = await tx.$queryRaw<{ jurisdiction: Jurisdiction }[]>`
    SELECT jurisdiction::text AS jurisdiction FROM sub_brands WHERE id = ${subBrandId}::uuid FOR SHARE`;
  if (row?.jurisdiction === 'UKGC') throw mixedProductRefusal(subject, verticals);
}
