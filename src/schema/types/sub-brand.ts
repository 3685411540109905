// Sub-brands (establishments): the tenants. Managed by platform admin keys; a brand admin (a
// person, issue 14) reads its own brand's sub-brands and manages their keys.
import { createSubBrand } from '../../domain/tenancy/create-sub-brand.js';
import { isUuid } from '../../domain/ids.js';
import { builder } from '../builder.js';
import { keyManagerWhere } from '../key-managers.js';
import { effect } from '../effects.js';

builder.prismaObject('SubBrand', {
  description: 'A tenant: the establishment of the management API, the scope of every key.',
  fields: (t) => ({
    id: t.exposeID('id'),
    brandId: t.exposeID('brandId'),
    name: t.exposeString('name'),
    country: t.exposeString('country', { nullable: true }),
    currency: t.exposeString('currency'),
    prepaid: t.exposeBoolean('prepaid'),
    coinsPerUnit: t.exposeInt('coinsPerUnit', { description: 'Coins per one unit of currency.' }),
    marginBps: t.exposeInt('marginBps', {
      description: "The sub-brand's margin in basis points, the last level of the cascade.",
      authScopes: { admin: true },
    }),
    isPlatform: t.exposeBoolean('isPlatform'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    brand: t.relation('brand'),
    apiKeys: t.relatedConnection('apiKeys', {
      cursor: 'id',
      description: 'Keys of this sub-brand, newest first; the keys themselves are never shown.',
      query: { orderBy: { id: 'desc' } },
    }),
  }),
});

builder.queryField('subBrand', (t) =>
  t.prismaField({
    type: 'SubBrand',
    nullable: true,
    description: "Platform admins: any sub-brand. Brand admins: their brand's; others: null.",
    authScopes: { admin: true, staff: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, { id }, ctx) => {
      const reach = keyManagerWhere(ctx);
      return isUuid(String(id)) && reach
        ? ctx.db.subBrand.findFirst({ ...query, where: { ...reach, id: String(id) } })
        : null;
    },
  }),
);

const CreateSubBrandInput = builder.inputType('CreateSubBrandInput', {
  fields: (t) => ({
    brandId: t.id({ required: true }),
    name: t.string({ required: true, description: '1-120 characters.' }),
    country: t.string({ description: 'ISO-3166-1 alpha-2 market, e.g. ES.' }),
    currency: t.string({ description: 'ISO-4217, default EUR.' }),
    prepaid: t.boolean({ description: 'Orders reserve money from a prepaid balance.' }),
  }),
});

builder.mutationField('createSubBrand', (t) =>
  t.prismaField({
    extensions: effect('creates'),
    type: 'SubBrand',
    authScopes: { admin: true },
    args: { input: t.arg({ type: CreateSubBrandInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const subBrand = await createSubBrand(ctx.db, {
        brandId: String(input.brandId),
        name: input.name,
        country: input.country,
        currency: input.currency ?? undefined,
        prepaid: input.prepaid ?? undefined,
      });
      return ctx.db.subBrand.findUniqueOrThrow({ ...query, where: { id: subBrand.id } });
    },
  }),
);
