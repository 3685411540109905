// Customers (the establishment API's players): partner keys, confined to their tenant.
import { z } from 'zod';
import { createCustomer } from '../../domain/customers/create-customer.js';
import { customerList } from '../../domain/customers/customer-list.js';
import { customerConditions } from '../../domain/customers/customer-where.js';
import { deleteCustomer } from '../../domain/customers/delete-customer.js';
import { CUSTOMER_STATUSES, customerFilter, LANGUAGES } from '../../domain/customers/schemas.js';
import { updateCustomer } from '../../domain/customers/update-customer.js';
import { AppError, notFound } from '../../domain/errors.js';
import type { Tenant } from '../../domain/tenant.js';
import { isUuid } from '../../domain/ids.js';
import { parseInput } from '../../domain/validation.js';
import { listTotal, plannedRows } from '../../domain/list-total.js';
import { ListTotalRef } from '../list-total.js';
import { enumOf } from '../zod-input.js';
import { builder } from '../builder.js';
import { onReplica } from '../read.js';
import { definedInput, patchArgs } from '../inputs.js';
import type { GraphQLContext } from '../context.js';
import { tenantOf } from '../tenant.js';
import { wantedIds } from '../by-ids.js';
import { EnvironmentEnum } from './environment.js';
import { effect } from '../effects.js';

export const CustomerStatusEnum = builder.enumType('CustomerStatus', { values: CUSTOMER_STATUSES });
const LanguageEnum = enumOf('Language', LANGUAGES);

builder.prismaObject('Customer', {
  fields: (t) => ({
    id: t.exposeID('id'),
    subBrandId: t.exposeID('subBrandId', { description: 'The establishment it belongs to.' }),
    externalId: t.exposeString('externalId', {
      nullable: true,
      description: "The partner's own player id; unique per sub-brand.",
    }),
    segmentId: t.exposeString('segmentId', {
      nullable: true,
      description: "The partner's own grouping of the player (free text).",
    }),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
    nickname: t.exposeString('nickname', { nullable: true }),
    email: t.exposeString('email', { nullable: true, extensions: { jsonShape: z.email() } }),
    phone: t.exposeString('phone', { nullable: true }),
    addressLine: t.exposeString('addressLine', { nullable: true }),
    postalCode: t.exposeString('postalCode', { nullable: true }),
    zone: t.exposeString('zone', { nullable: true }),
    locality: t.exposeString('locality', { nullable: true }),
    city: t.exposeString('city', { nullable: true }),
    state: t.exposeString('state', { nullable: true }),
    country: t.exposeString('country', { nullable: true }),
    preferredLang: t.expose('preferredLang', { type: LanguageEnum, nullable: true }),
    platformRegisteredAt: t.expose('platformRegisteredAt', { type: 'DateTime', nullable: true }),
    status: t.expose('status', { type: CustomerStatusEnum }),
    statusNote: t.exposeString('statusNote', { nullable: true }),
    statusChangedAt: t.expose('statusChangedAt', {
      type: 'DateTime',
      description: 'Stamped at creation and whenever status changes.',
    }),
    coinBalance: t.field({
      type: 'SafeInt',
      description: 'Coins in the wallet: the sum of its movements, never negative.',
      extensions: { jsonShape: z.number().int().min(0) },
      select: { wallet: { select: { balance: true } } },
      resolve: (c) => c.wallet?.balance ?? 0,
    }),
    orderCount: t.exposeInt('orderCount', { description: 'Orders ever placed.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    coinMovements: t.relatedConnection('movements', {
      // In the order they were applied (seq), so each balance_after follows from the one before;
      // ids are drawn before the wallet lock and can interleave under concurrency.
      cursor: 'customerId_seq',
      description: 'The movement log, newest first (in the order it was applied).',
      query: { orderBy: { seq: 'desc' } },
    }),
  }),
});

const CustomerFilterInput = builder.inputType('CustomerFilter', {
  description:
    'All given conditions combine with AND. Window starts are inclusive, ends exclusive.',
  fields: (t) => ({
    q: t.string({
      description:
        'Case-insensitive substring of first name, last name, e-mail or external id, or part of the phone number (its digits: "600112233" and "+34600" find +34 600 11 22 33).',
    }),
    status: t.field({ type: CustomerStatusEnum }),
    segmentId: t.string(),
    email: t.string({ description: 'Exact e-mail, compared case-insensitively.' }),
    externalId: t.string({ description: 'Exact external id.' }),
    country: t.string(),
    createdAfter: t.field({ type: 'DateTime' }),
    createdBefore: t.field({ type: 'DateTime' }),
    registeredAfter: t.field({ type: 'DateTime' }),
    registeredBefore: t.field({ type: 'DateTime' }),
    minCoins: t.field({ type: 'SafeInt' }),
    maxCoins: t.field({ type: 'SafeInt' }),
    minOrders: t.field({ type: 'SafeInt' }),
    maxOrders: t.field({ type: 'SafeInt' }),
  }),
});
export { CustomerFilterInput };

/**
 * Whose customers: the key's own; a platform admin may name any sub-brand and environment (the
 * backoffice browses every tenant). Anyone else naming one is refused.
 */
function browsedTenant(
  ctx: GraphQLContext,
  args: { subBrandId?: string | null; environment?: 'live' | 'test' | null },
): Tenant {
  if (args.subBrandId == null && args.environment == null) return tenantOf(ctx);
  if (!ctx.principal.isPlatformAdmin) {
    throw new AppError('forbidden', 'Only platform admins may browse another sub-brand.');
  }
  return {
    subBrandId: args.subBrandId ?? ctx.principal.subBrandId,
    environment: args.environment ?? ctx.principal.environment,
  };
}

type CustomersArgs = {
  filter?: Record<string, unknown> | null;
  subBrandId?: string | null;
  environment?: 'live' | 'test' | null;
};

/** The customers list's tenant, filter and query (the page and its total alike). */
async function customersListed(ctx: GraphQLContext, { filter, ...args }: CustomersArgs) {
  const tenant = browsedTenant(ctx, args);
  if (!isUuid(tenant.subBrandId)) throw notFound('Sub-brand');
  const f = parseInput(customerFilter, definedInput(filter));
  return { tenant, filter: f, list: await customerList(ctx.db, tenant, f) };
}

builder.queryFields((t) => ({
  customers: t.prismaConnection(
    {
      type: 'Customer',
      cursor: 'id',
      description:
        "The key's customers, newest first. Platform admins may browse any sub-brand and environment.",
      authScopes: { scope: 'customers:read', admin: true },
      args: {
        filter: t.arg({ type: CustomerFilterInput }),
        subBrandId: t.arg.id({ description: 'Platform admins: the sub-brand to browse.' }),
        environment: t.arg({
          type: EnvironmentEnum,
          description: 'Platform admins: default test.',
        }),
      },
      resolve: async (query, _root, args, ctx) => {
        const { list } = await customersListed(ctx, args);
        return onReplica(ctx, async (db) =>
          db.customer.findMany({
            ...query,
            ...(await list.page(db, query.cursor?.id, query.take)),
          }),
        );
      },
    },
    {
      fields: (c) => ({
        total: c.field({
          type: ListTotalRef,
          description:
            'How many customers match the filter: exact up to 10,000, estimated above (exact: false).',
          resolve: async (connection, _args, ctx) => {
            const { tenant, filter, list } = await customersListed(ctx, connection.args);
            return onReplica(ctx, (db) =>
              listTotal({
                countUpTo: (take) => list.countUpTo(db, take),
                estimate: () => plannedRows(db, 'customers', customerConditions(tenant, filter)),
              }),
            );
          },
        }),
      }),
    },
  ),
  customer: t.prismaField({
    type: 'Customer',
    description: 'One customer of the key; a platform admin reads any, with its wallet history.',
    authScopes: { scope: 'customers:read', admin: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      // A platform admin is not confined to its own tenant here: it reads any customer by id.
      const scope = ctx.principal.isPlatformAdmin ? {} : tenantOf(ctx);
      const customer = isUuid(String(id))
        ? await onReplica(ctx, (db) =>
            db.customer.findFirst({ ...query, where: { id: String(id), ...scope } }),
          )
        : null;
      if (!customer) throw notFound('Customer');
      return customer;
    },
  }),
  customersByIds: t.prismaField({
    type: ['Customer'],
    description:
      "Many of the key's customers at once, in no particular order (the event relay's batch, schema/by-ids.ts): at most 500 ids; an unknown or another tenant's id is left out.",
    authScopes: { scope: 'customers:read' },
    args: { ids: t.arg.idList({ required: true }) },
    resolve: (query, _root, { ids }, ctx) => {
      const wanted = wantedIds(ids);
      return wanted.length
        ? ctx.db.customer.findMany({ ...query, where: { id: { in: wanted }, ...tenantOf(ctx) } })
        : [];
    },
  }),
}));

/** The optional text fields, alike in both input types. */
const OPTIONAL_TEXT = [
  'externalId',
  'segmentId',
  'nickname',
  'email',
  'phone',
  'addressLine',
  'postalCode',
  'zone',
  'locality',
  'city',
  'state',
  'country',
] as const;

const CreateCustomerInput = builder.inputType('CreateCustomerInput', {
  fields: (t) => ({
    firstName: t.string({ required: true }),
    lastName: t.string({ required: true }),
    ...Object.fromEntries(OPTIONAL_TEXT.map((k) => [k, t.string()])),
    preferredLang: t.field({ type: LanguageEnum }),
    platformRegisteredAt: t.field({ type: 'DateTime' }),
    status: t.field({ type: CustomerStatusEnum }),
  }),
});

const UpdateCustomerInput = builder.inputType('UpdateCustomerInput', {
  description: 'Omitted fields stay as they are; null unsets a nullable field.',
  fields: (t) => ({
    firstName: t.string(),
    lastName: t.string(),
    ...Object.fromEntries(OPTIONAL_TEXT.map((k) => [k, t.string()])),
    preferredLang: t.field({ type: LanguageEnum }),
    platformRegisteredAt: t.field({ type: 'DateTime' }),
    status: t.field({ type: CustomerStatusEnum }),
    statusNote: t.string(),
  }),
});

const DeletedRef = builder.objectRef<{ id: string }>('DeletedCustomer').implement({
  fields: (t) => ({ id: t.exposeID('id'), deleted: t.boolean({ resolve: () => true }) }),
});

builder.mutationFields((t) => ({
  createCustomer: t.prismaField({
    extensions: effect('creates'),
    type: 'Customer',
    authScopes: { scope: 'customers:create' },
    args: { input: t.arg({ type: CreateCustomerInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const created = await createCustomer(ctx.db, tenantOf(ctx), definedInput(input));
      return ctx.db.customer.findUniqueOrThrow({ ...query, where: { id: created.id } });
    },
  }),
  updateCustomer: t.prismaField({
    extensions: effect('changes'),
    type: 'Customer',
    authScopes: { scope: 'customers:update' },
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateCustomerInput, required: true }),
    },
    resolve: async (query, _root, { id, input }, ctx) => {
      const updated = await updateCustomer(
        ctx.db,
        tenantOf(ctx),
        String(id),
        patchArgs(input, ['firstName', 'lastName', 'status']),
      );
      return ctx.db.customer.findUniqueOrThrow({ ...query, where: { id: updated.id } });
    },
  }),
  deleteCustomer: t.field({
    extensions: effect('removes'),
    type: DeletedRef,
    authScopes: { scope: 'customers:delete' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => deleteCustomer(ctx.db, tenantOf(ctx), String(id)),
  }),
}));
