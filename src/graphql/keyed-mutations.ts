// Exactly-once for GraphQL mutations (issue 29, G7): the one rule on /graphql is the
// Idempotency-Key header, taken by the same owner as the REST routes'
// (exactly-once/keyed-requests.ts). A mutation request that carries one runs in the transaction
// that claims the key, and its answer is stored with it: a browser or a proxy that sends it
// again after a lost answer gets the same bytes (`idempotent-replay: true`), and nothing happens
// twice. Which mutations must carry one is declared on each field (schema/effects.ts): those that
// move coins or create records. Requests without a key, and queries, go on to yoga unchanged.
import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { execute, OperationTypeNode, type GraphQLError, type GraphQLSchema } from 'graphql';
import { wroteAs } from '../db/replica.js';
import type { Db } from '../domain/db.js';
import { AppError } from '../domain/errors.js';
import { callerOf } from '../domain/tenancy/caller.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { FAMILIES } from '../rest/families/index.js';
import {
  readIdempotencyKey,
  requestFingerprint,
  runIdempotently,
} from '../exactly-once/keyed-requests.js';
import type { GraphQLContext } from '../schema/context.js';
import { extensionsOf, needsIdempotencyKey } from '../schema/effects.js';
import { graphqlErrorBody } from './errors.js';
import { checkedDocument, DocumentRefused, pickOperation, rootFields } from './limits.js';
import type { MaskError } from './mask-error.js';

/** A keyed mutation whose document ran and answered errors: its transaction is rolled back. */
class MutationRefused extends AppError {
  readonly json: string;
  /** `masked`: the errors as the caller sees them; `raw`: as the fields threw them. */
  constructor(masked: readonly GraphQLError[], raw: readonly GraphQLError[]) {
    const codes = masked.map((e) => e.extensions.code);
    // What the fields' refusals leave to write once this transaction is rolled back (the
    // responsible-gaming gate's decisions): runIdempotently writes it.
    const after = raw.flatMap((e) =>
      e.originalError instanceof AppError && e.originalError.afterRollback
        ? [e.originalError.afterRollback]
        : [],
    );
    // Stored and replayed like a REST refusal, unless a failure on our side may pass on a retry.
    super(
      codes.some((c) => c === 'internal_error' || c === 'service_unavailable')
        ? 'internal_error'
        : 'invalid_request',
      masked[0]!.message,
      after.length
        ? {
            afterRollback: async (db) => {
              for (const write of after) await write(db);
            },
          }
        : {},
    );
    this.json = JSON.stringify({ errors: masked, data: null });
  }
}

/** A player's key as stored: 45 characters, within the records' 64. */
const playerKey = (customerId: string, key: string) =>
  `m_${createHash('sha256').update(`${customerId}:${key}`).digest('base64url')}`;

export function keyedMutations(deps: {
  prisma: PrismaClient;
  schema: GraphQLSchema;
  context: (req: Request, res: Response) => GraphQLContext;
  maskError: MaskError;
}): RequestHandler {
  const fields = deps.schema.getMutationType()?.getFields() ?? {};
  return async (req, res, next) => {
    const { query, variables, operationName } = (req.method === 'POST' ? req.body : {}) as Record<
      string,
      unknown
    >;
    if (typeof query !== 'string') return next();
    const document = checkedDocument(deps.schema, query);
    if (document instanceof DocumentRefused) return next(); // refused by its charge already
    const operation = pickOperation(document, operationName);
    if (operation?.operation !== OperationTypeNode.MUTATION) return next();
    const names = [...new Set(rootFields(document, operation))].filter((n) => fields[n]);
    const declared = names.map((name) => ({ name, ...extensionsOf(fields[name]!) }));
    const sent = readIdempotencyKey(req.get('idempotency-key'));
    const context = deps.context(req, res);
    // A player's keys are the player's own: scoped to their customer, they can never meet (or
    // block) a key the sub-brand's own systems send.
    const player = context.principal.player;
    const key = sent !== null && player ? playerKey(player.customerId, sent) : sent;
    if (key === null) {
      const needing = declared.filter((f) => needsIdempotencyKey(f.effect)).map((f) => f.name);
      if (needing.length) {
        throw new AppError(
          'missing_idempotency_key',
          `${needing.join(', ')} ${needing.length > 1 ? 'move coins or create records' : 'moves coins or creates a record'}: ` +
            'send an Idempotency-Key header (1-64 ASCII characters), the same one when you send the same request again.',
        );
      }
      return next();
    }
    const secret = declared.find((f) => f.effect === 'mints_secret');
    if (secret) {
      throw new AppError(
        'invalid_request',
        `${secret.name} answers a secret shown once, which is never stored, so it cannot be replayed: send it without an Idempotency-Key.`,
      );
    }
    const own = declared.find((f) => f.ownTransactions);
    if (own && names.length > 1) {
      throw new AppError(
        'invalid_request',
        `${own.name} commits in steps of its own: send it alone in its request.`,
      );
    }
    const run = async (db: Db) => {
      const result = await execute({
        schema: deps.schema,
        document,
        operationName: typeof operationName === 'string' ? operationName : undefined,
        variableValues: variables as Record<string, unknown> | undefined,
        contextValue: { ...context, db, idempotencyKey: key },
      });
      if (result.errors?.length)
        throw new MutationRefused(result.errors.map(deps.maskError), result.errors);
      return { status: 200, json: JSON.stringify({ data: result.data }) };
    };
    try {
      const outcome = await runIdempotently({
        prisma: deps.prisma,
        principal: context.principal,
        key,
        requestHash: requestFingerprint('POST', '/graphql', {
          query,
          variables: variables ?? null,
          operationName: operationName ?? null,
        }),
        transaction: own ? 'self' : 'wrap',
        work: run,
        refusal: (error) => {
          if (error.retryable) return null;
          if (error instanceof MutationRefused) return { status: 200, json: error.json };
          return {
            status: FAMILIES.partner.status(error),
            json: JSON.stringify(graphqlErrorBody(error, context.requestId)),
          };
        },
      });
      // The caller's next read sees this write, even from a standby (db/replica.ts).
      await wroteAs(deps.prisma, callerOf(context.principal));
      if (outcome.replayed) res.set('idempotent-replay', 'true');
      res.status(outcome.status).type('application/json').send(outcome.json);
    } catch (error) {
      // Errors in the GraphQL envelope answer 200, as yoga's do; the others go to the app's
      // error handler (a 409 for a key reused with another request, a 503 in an outage).
      if (!(error instanceof MutationRefused)) throw error;
      res.status(200).type('application/json').send(error.json);
    }
  };
}
