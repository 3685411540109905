// The Pothos builder: plugins, context and scalars only. Types live in ./types, one per file.
import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { GraphQLScalarType, Kind } from 'graphql';
import { AppError } from '../domain/errors.js';
import { CURSOR_PAGE } from '../domain/pages.js';
import { ROLE_NAMES } from '../domain/staff/roles.js';
import { hasStorableYear } from '../domain/validation.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type PrismaTypes from '../generated/pothos-types.js';
import { getDatamodel } from '../generated/pothos-types.js';
import type { GraphQLContext } from './context.js';

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  PrismaTypes: PrismaTypes;
  AuthScopes: {
    scope: string;
    /** Any one of these scopes (a read both a reader and a writer of the records may make). */
    anyScope: readonly string[];
    admin: boolean;
    staff: boolean;
    player: boolean;
  };
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    SafeInt: { Input: number; Output: number | bigint };
    JSON: { Input: unknown; Output: unknown };
    ID: { Input: string; Output: string };
  };
  DefaultFieldNullability: false;
}>({
  plugins: [ScopeAuthPlugin, PrismaPlugin, RelayPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    // A subscription's scopes are checked when it starts (schema/types/live.ts), not per answer.
    authorizeOnSubscribe: true,
    authScopes: (ctx) => ({
      scope: (scope: string) => ctx.principal.scopes.has(scope),
      anyScope: (scopes: readonly string[]) => scopes.some((s) => ctx.principal.scopes.has(s)),
      admin: ctx.principal.isPlatformAdmin,
      // A signed-in person (the backoffice), whatever its role: what only people may read.
      staff: Boolean(ctx.principal.staff),
      // A player in the marketplace (a store session): only the marketplace's fields take it.
      player: Boolean(ctx.principal.player),
    }),
    // Our one error model: a refused scope is `forbidden` on every transport. A person is told
    // about their role, not about a key's scopes, which the backoffice never shows (B7, B8).
    unauthorizedError: (_parent, ctx) =>
      new AppError(
        'forbidden',
        ctx.principal.staff
          ? `Your role (${ROLE_NAMES[ctx.principal.staff.role]}) cannot do this. Ask an admin of your brand.`
          : 'This key lacks the scope this operation needs.',
      ),
  },
  prisma: {
    // The core's cursor page (domain/pages.ts), which the partner API's lists pass through.
    defaultConnectionSize: CURSOR_PAGE.defaultSize,
    maxConnectionSize: CURSOR_PAGE.maxSize,
    // Resolvers read through the request's transaction when the REST layer opened one.
    client: (ctx) => ctx.db as PrismaClient,
    dmmf: getDatamodel(),
    exposeDescriptions: true,
    filterConnectionTotalCount: true,
    onUnusedQuery: process.env.NODE_ENV === 'production' ? null : 'warn',
  },
  relay: { cursorType: 'String', clientMutationId: 'omit' },
});

/** ISO-8601 UTC with a `Z`, as the wire conventions require. */
builder.addScalarType(
  'DateTime',
  new GraphQLScalarType<Date, string>({
    name: 'DateTime',
    description: 'An ISO-8601 instant in UTC, e.g. 2026-01-31T12:00:00.000Z.',
    serialize: (value) => (value instanceof Date ? value : new Date(String(value))).toISOString(),
    parseValue: (value) => parseInstant(value),
    parseLiteral: (ast) => parseInstant(ast.kind === Kind.STRING ? ast.value : null),
  }),
);

function parseInstant(value: unknown): Date {
  // The REST layer validates instants before it executes, and passes them on as Dates.
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value;
  if (
    typeof value === 'string' &&
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/.test(value) &&
    hasStorableYear(value)
  ) {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return date;
  }
  throw new AppError('invalid_request', 'DateTime must be an ISO-8601 UTC instant ending in Z.');
}

/** Coin amounts: beyond GraphQL's 32-bit Int, exact as JSON numbers (±(2^53 - 1)). */
builder.addScalarType(
  'SafeInt',
  new GraphQLScalarType<number, number>({
    name: 'SafeInt',
    description: 'An integer within ±9007199254740991 (exact as a JSON number).',
    serialize: (value) => {
      const n = Number(value);
      if (!Number.isSafeInteger(n))
        throw new TypeError(`SafeInt cannot represent ${String(value)}`);
      return n;
    },
    parseValue: (value) => parseSafeInt(value),
    parseLiteral: (ast) => parseSafeInt(ast.kind === Kind.INT ? Number(ast.value) : null),
  }),
);

function parseSafeInt(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  throw new AppError('invalid_request', 'SafeInt must be an integer within ±9007199254740991.');
}

/** Free-form JSON (definition constraints). */
builder.addScalarType(
  'JSON',
  new GraphQLScalarType({
    name: 'JSON',
    description: 'Any JSON value.',
    serialize: (value) => value,
    parseValue: (value) => value,
    parseLiteral: (ast) => {
      throw new AppError(
        'invalid_request',
        `JSON arguments must be passed as variables (got ${ast.kind} inline).`,
      );
    },
  }),
);

builder.queryType({});
builder.mutationType({});
