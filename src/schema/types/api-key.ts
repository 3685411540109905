// API keys: minted and revoked by platform admins, and by brand admins (people) for their
// brand's sub-brands (schema/key-managers.ts). A key is shown once, in the mutation's answer;
// queries only ever show its display prefix.
import { notFound } from '../../domain/errors.js';
import { isUuid } from '../../domain/ids.js';
import { createApiKey, createPlatformAdminKey } from '../../domain/tenancy/create-api-key.js';
import { revokeApiKey } from '../../domain/tenancy/revoke-api-key.js';
import { KEY_SCOPES } from '../../domain/tenancy/scopes.js';
import { builder } from '../builder.js';
import { assertManagesKeysOf } from '../key-managers.js';
import { EnvironmentEnum } from './environment.js';
import { effect } from '../effects.js';

const ApiKeyRef = builder.prismaObject('ApiKey', {
  fields: (t) => ({
    id: t.exposeID('id'),
    subBrandId: t.exposeID('subBrandId'),
    displayPrefix: t.exposeString('displayPrefix', {
      description: 'The first characters of the key.',
    }),
    environment: t.field({ type: EnvironmentEnum, resolve: (k) => k.environment }),
    scopes: t.exposeStringList('scopes'),
    allowedCidrs: t.exposeStringList('allowedCidrs', { description: 'Empty: any address.' }),
    readLimit: t.exposeInt('readLimit', {
      nullable: true,
      description: 'Reads per minute; null: default 120.',
    }),
    writeLimit: t.exposeInt('writeLimit', {
      nullable: true,
      description: 'Writes per minute; null: default 30.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
  }),
});

type Created = { key: string; id: string };
const CreatedApiKeyRef = builder.objectRef<Created>('CreatedApiKey').implement({
  description: 'A new key. `key` is shown here once and never again: store it now.',
  fields: (t) => ({
    key: t.exposeString('key'),
    apiKey: t.prismaField({
      type: 'ApiKey',
      resolve: (query, created, _args, ctx) =>
        ctx.db.apiKey.findUniqueOrThrow({ ...query, where: { id: created.id } }),
    }),
  }),
});

const PartnerScopeEnum = builder.enumType('PartnerScope', {
  values: Object.fromEntries(
    KEY_SCOPES.map((s) => [s.replace(/\W/g, '_').toUpperCase(), { value: s }]),
  ),
});

const CreateApiKeyInput = builder.inputType('CreateApiKeyInput', {
  fields: (t) => ({
    subBrandId: t.id({ required: true }),
    environment: t.field({ type: EnvironmentEnum, required: true }),
    scopes: t.field({ type: [PartnerScopeEnum], required: true }),
    allowedCidrs: t.stringList({ description: 'Addresses or CIDR blocks; omitted or empty: any.' }),
    readLimit: t.int({ description: 'Reads per minute (default 120).' }),
    writeLimit: t.int({ description: 'Writes per minute (default 30).' }),
  }),
});

builder.mutationFields((t) => ({
  createApiKey: t.field({
    extensions: effect('mints_secret'),
    type: CreatedApiKeyRef,
    description:
      "Platform admins: for any sub-brand. Brand admins: for their brand's sub-brands, partner scopes only.",
    authScopes: { admin: true, staff: true },
    args: { input: t.arg({ type: CreateApiKeyInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      await assertManagesKeysOf(ctx, String(input.subBrandId));
      return createApiKey(ctx.db, {
        subBrandId: String(input.subBrandId),
        environment: input.environment,
        scopes: input.scopes as (typeof KEY_SCOPES)[number][],
        allowedCidrs: input.allowedCidrs ?? undefined,
        readLimit: input.readLimit,
        writeLimit: input.writeLimit,
      });
    },
  }),
  createPlatformAdminKey: t.field({
    extensions: effect('mints_secret'),
    type: CreatedApiKeyRef,
    authScopes: { admin: true },
    args: { environment: t.arg({ type: EnvironmentEnum, required: true }) },
    resolve: (_root, { environment }, ctx) => createPlatformAdminKey(ctx.db, environment),
  }),
  revokeApiKey: t.prismaField({
    extensions: effect('removes'),
    type: ApiKeyRef,
    authScopes: { admin: true, staff: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      if (!ctx.principal.isPlatformAdmin) {
        const target = isUuid(String(id))
          ? await ctx.db.apiKey.findUnique({
              where: { id: String(id) },
              select: { subBrandId: true },
            })
          : null;
        // Another brand's key is not found, like its sub-brand.
        await assertManagesKeysOf(ctx, target?.subBrandId ?? '').catch((error: unknown) => {
          throw error instanceof Error && 'code' in error && error.code === 'not_found'
            ? notFound('API key')
            : error;
        });
      }
      const key = await revokeApiKey(ctx.db, String(id));
      return ctx.db.apiKey.findUniqueOrThrow({ ...query, where: { id: key.id } });
    },
  }),
}));
