// Brands: managed by platform admin keys only.
import { PLATFORM_MARGIN_KEY } from '../../domain/catalog/pricing.js';
import { createBrand } from '../../domain/tenancy/create-brand.js';
import { builder } from '../builder.js';
import { countedTotal, ListTotalRef } from '../list-total.js';
import { EnvironmentEnum } from './environment.js';
import { effect } from '../effects.js';

const PrepaidAccountRef = builder.prismaObject('PrepaidAccount', {
  description: "A brand's prepaid money in one environment.",
  fields: (t) => ({
    environment: t.field({ type: EnvironmentEnum, resolve: (a) => a.environment }),
    currency: t.exposeString('currency'),
    balance: t.field({
      type: 'SafeInt',
      description: 'Minor units of currency.',
      resolve: (a) => a.balance,
    }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

builder.prismaObject('Brand', {
  description: 'An operator group; it owns one or more sub-brands.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    marginBps: t.exposeInt('marginBps', {
      description: "The brand's margin in basis points, after the platform's.",
    }),
    prepaidAccounts: t.relation('prepaidAccounts', {
      type: PrepaidAccountRef,
      description: 'The prepaid balance per environment (none until the first top-up).',
    }),
    subBrands: t.relatedConnection('subBrands', {
      cursor: 'id',
      query: { orderBy: { id: 'desc' } },
    }),
  }),
});

builder.queryFields((t) => ({
  brands: t.prismaConnection(
    {
      type: 'Brand',
      cursor: 'id',
      description: 'Every brand, newest first.',
      authScopes: { admin: true },
      resolve: (query, _root, _args, ctx) =>
        ctx.db.brand.findMany({ ...query, orderBy: { id: 'desc' } }),
    },
    {
      fields: (c) => ({
        total: c.field({
          type: ListTotalRef,
          description: 'How many brands there are: exact up to 10,000, "more than" above.',
          resolve: (_connection, _args, ctx) =>
            countedTotal((take) => ctx.db.brand.count({ take })),
        }),
      }),
    },
  ),
  platformMarginBps: t.int({
    description: 'The platform margin in basis points, the first level of the price cascade.',
    authScopes: { admin: true },
    resolve: async (_root, _args, ctx) => {
      const row = await ctx.db.platformSetting.findUnique({ where: { key: PLATFORM_MARGIN_KEY } });
      return Number(row?.value ?? 0);
    },
  }),
  brand: t.prismaField({
    type: 'Brand',
    nullable: true,
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, { id }, ctx) =>
      ctx.db.brand.findFirst({ ...query, where: { id: String(id) } }).catch(() => null),
  }),
}));

const CreateBrandInput = builder.inputType('CreateBrandInput', {
  fields: (t) => ({ name: t.string({ required: true, description: '1-120 characters.' }) }),
});

builder.mutationField('createBrand', (t) =>
  t.prismaField({
    extensions: effect('creates'),
    type: 'Brand',
    authScopes: { admin: true },
    args: { input: t.arg({ type: CreateBrandInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const brand = await createBrand(ctx.db, input);
      return ctx.db.brand.findUniqueOrThrow({ ...query, where: { id: brand.id } });
    },
  }),
);
