// How many units of which rate bucket a request spends, when that is more than "one request, one
// unit": a GraphQL query by its cost, a GraphQL mutation per root field, an MCP JSON-RPC batch per
// message. Worked out from the parsed body before the rate limiter runs (src/http/rate-limit.ts
// reads it from res.locals); a request that is refused here is still charged.
import type { GraphQLSchema } from 'graphql';
import type { RequestHandler } from 'express';
import { AppError } from '../domain/errors.js';
import { chargeOf } from '../graphql/limits.js';
import { assertStorableInput } from './input-guard.js';
import { locals } from './locals.js';

/** JSON-RPC messages in one POST /api/mcp (the MCP SDK itself would take 100). */
export const MAX_MCP_BATCH = 20;

export const graphqlCharge =
  (schema: GraphQLSchema): RequestHandler =>
  (req, res, next) => {
    const params: unknown = req.method === 'GET' ? req.query : req.body;
    const charge = chargeOf(schema, params);
    locals(res).charge = { bucket: charge.bucket, units: charge.units };
    try {
      assertStorableInput({ query: (params as { query?: unknown } | undefined)?.query });
      assertStorableInput({
        variables: (params as { variables?: unknown } | undefined)?.variables,
      });
      if (charge.refusal) throw charge.refusal;
    } catch (refusal) {
      locals(res).refusal = refusal as AppError;
    }
    next();
  };

/** Every JSON-RPC message of a batch is an operation: a batch of 20 tool calls spends 20 units. */
export const mcpCharge =
  (readTools: ReadonlySet<string>): RequestHandler =>
  (req, res, next) => {
    if (req.method !== 'POST') return next();
    const messages: unknown[] = Array.isArray(req.body) ? req.body : [req.body];
    const writes = messages.some((m) => {
      const message = m as { method?: unknown; params?: { name?: unknown } } | null;
      return message?.method === 'tools/call' && !readTools.has(String(message.params?.name));
    });
    locals(res).charge = { bucket: writes ? 'write' : 'read', units: Math.max(1, messages.length) };
    if (messages.length > MAX_MCP_BATCH) {
      locals(res).refusal = new AppError(
        'invalid_request',
        `A JSON-RPC batch may hold at most ${MAX_MCP_BATCH} messages; this one has ${messages.length}.`,
      );
    }
    next();
  };

/** Throws the refusal a charge left, once the caller is known (401 and 403 come first). */
export const refuseCharged: RequestHandler = (_req, res, next) => {
  const refusal = locals(res).refusal;
  if (refusal) throw refusal;
  next();
};
