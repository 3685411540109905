// GET /api/v1/brands/{brandId}/sub-brands/{subBrandId}: a partner reads its own sub-brand (any
// other is 404). What it needs to integrate: market, coin ratio, prepaid state; never margins.
import { notFound } from '../../domain/errors.js';
import { coinExpiryOf, type CoinExpiry } from '../../domain/wallet/expiry-policy.js';
import { CoinExpiryRef } from './coin-lots.js';
import { builder } from '../builder.js';
import type { Jurisdiction } from '../../generated/prisma/enums.js';
import { JurisdictionEnum } from './jurisdiction.js';

type Profile = {
  id: string;
  brandId: string;
  brandName: string;
  name: string;
  country: string | null;
  currency: string;
  coinsPerUnit: number;
  prepaid: boolean;
  prepaidBalance: bigint | null;
  prepaidCurrency: string | null;
  coinExpiry: CoinExpiry;
  jurisdiction: Jurisdiction;
  createdAt: Date;
};

const ProfileRef = builder.objectRef<Profile>('SubBrandProfile').implement({
  description: "A partner's view of its own sub-brand.",
  fields: (t) => ({
    id: t.exposeID('id'),
    brandId: t.exposeID('brandId'),
    brandName: t.exposeString('brandName'),
    name: t.exposeString('name'),
    country: t.exposeString('country', {
      nullable: true,
      description: 'The market served; null: none yet, so no product is visible.',
    }),
    currency: t.exposeString('currency'),
    coinsPerUnit: t.exposeInt('coinsPerUnit', {
      description: 'Coins per one unit of currency: coin prices are sell prices at this ratio.',
    }),
    prepaid: t.exposeBoolean('prepaid', {
      description: "Orders reserve their money from the brand's prepaid balance.",
    }),
    prepaidBalance: t.field({
      type: 'SafeInt',
      nullable: true,
      description: "The brand's prepaid balance in the key's environment, minor units.",
      resolve: (p) => p.prepaidBalance,
    }),
    prepaidCurrency: t.exposeString('prepaidCurrency', { nullable: true }),
    coinExpiry: t.field({ type: CoinExpiryRef, resolve: (p) => p.coinExpiry }),
    jurisdiction: t.field({
      type: JurisdictionEnum,
      description: 'The regulator whose incentive rules apply (set by platform admins).',
      resolve: (p) => p.jurisdiction,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryField('subBrandProfile', (t) =>
  t.field({
    type: ProfileRef,
    authScopes: { scope: 'brands:read' },
    args: { brandId: t.arg.id({ required: true }), subBrandId: t.arg.id({ required: true }) },
    resolve: async (_root, { brandId, subBrandId }, ctx) => {
      const own = ctx.principal;
      if (String(subBrandId) !== own.subBrandId || String(brandId) !== own.brandId) {
        throw notFound('Sub-brand');
      }
      const s = await ctx.db.subBrand.findUniqueOrThrow({
        where: { id: own.subBrandId },
        include: {
          brand: { include: { prepaidAccounts: { where: { environment: own.environment } } } },
        },
      });
      const account = s.brand.prepaidAccounts[0];
      return {
        id: s.id,
        brandId: s.brandId,
        brandName: s.brand.name,
        name: s.name,
        country: s.country,
        currency: s.currency,
        coinsPerUnit: s.coinsPerUnit,
        prepaid: s.prepaid,
        prepaidBalance: s.prepaid ? (account?.balance ?? 0n) : null,
        prepaidCurrency: s.prepaid ? (account?.currency ?? s.currency) : null,
        coinExpiry: coinExpiryOf(s),
        jurisdiction: s.jurisdiction,
        createdAt: s.createdAt,
      };
    },
  }),
);
