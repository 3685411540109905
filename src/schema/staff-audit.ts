// Every mutation a staff member runs is audited (docs/backoffice.md): the wrapper below goes
// around each Mutation field once the schema is built, so a mutation added later is covered the
// day it is added. Keys' mutations are not wrapped in anything.
import { defaultFieldResolver, type GraphQLSchema } from 'graphql';
import { isClient, TRANSACTION_OPTIONS } from '../domain/db.js';
import { AUDIT_SNAPSHOTS, recordAudit } from '../domain/staff/audit.js';
import type { GraphQLContext } from './context.js';
import { extensionsOf } from './effects.js';

export function auditStaffMutations(schema: GraphQLSchema): GraphQLSchema {
  const fields = schema.getMutationType()?.getFields() ?? {};
  for (const [name, field] of Object.entries(fields)) {
    const resolve = field.resolve ?? defaultFieldResolver;
    const ownTransactions = extensionsOf(field).ownTransactions ?? false;
    field.resolve = async (root, args: Record<string, unknown>, ctx: GraphQLContext, info) => {
      const staff = ctx.principal.staff;
      if (!staff) return resolve(root, args, ctx, info);
      const snapshot = AUDIT_SNAPSHOTS[name];
      const run = async (db: GraphQLContext['db']) => {
        const before = snapshot ? await snapshot(db, args) : null;
        const result: unknown = await resolve(root, args, { ...ctx, db }, info);
        const after = snapshot ? await snapshot(db, args) : result;
        await recordAudit(db, {
          staffUserId: staff.userId,
          action: name,
          subBrandId: ctx.principal.subBrandId,
          environment: ctx.principal.environment,
          targetId: targetOf(args, result),
          args,
          before,
          after,
          requestId: ctx.requestId,
        });
        return result;
      };
      // One that commits in steps of its own (a bulk adjustment, an import with one transaction
      // per row, an engine delivery) cannot run inside one transaction with its audit row: its
      // row is written right after it succeeds.
      if (ownTransactions || !isClient(ctx.db)) return run(ctx.db);
      return ctx.db.$transaction((tx) => run(tx), TRANSACTION_OPTIONS);
    };
  }
  return schema;
}

function targetOf(args: Record<string, unknown>, result: unknown): string | null {
  for (const name of [
    'id',
    'transactionId',
    'customerId',
    'itemId',
    'catalogId',
    'variantId',
    'brandId',
  ]) {
    if (typeof args[name] === 'string') return args[name];
  }
  const id = (result as { id?: unknown; apiKey?: unknown } | null)?.id;
  return typeof id === 'string' ? id : null;
}
