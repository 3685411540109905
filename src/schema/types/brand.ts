// Brands: managed by platform admin keys only.
import { createBrand } from '../../domain/tenancy/create-brand.js';
import { builder } from '../builder.js';

builder.prismaObject('Brand', {
  description: 'An operator group; it owns one or more sub-brands.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    subBrands: t.relatedConnection('subBrands', {
      cursor: 'id',
      query: { orderBy: { id: 'desc' } },
    }),
  }),
});

builder.queryFields((t) => ({
  brands: t.prismaConnection({
    type: 'Brand',
    cursor: 'id',
    description: 'Every brand, newest first.',
    authScopes: { admin: true },
    resolve: (query, _root, _args, ctx) =>
      ctx.db.brand.findMany({ ...query, orderBy: { id: 'desc' } }),
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
    type: 'Brand',
    authScopes: { admin: true },
    args: { input: t.arg({ type: CreateBrandInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const brand = await createBrand(ctx.db, input);
      return ctx.db.brand.findUniqueOrThrow({ ...query, where: { id: brand.id } });
    },
  }),
);
