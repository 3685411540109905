// One tool call: the tool's route, called in-process through the same pipeline as REST (scope,
// validation, tenancy, Idempotency-Key, the GraphQL operation). Tools add no permissions: a
// missing scope is the route's 403, returned as a tool error with the API's code and message.
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AppError, invalidRequest } from '../domain/errors.js';
import type { Principal } from '../domain/tenancy/authenticate-api-key.js';
import { asAppError } from '../http/error-response.js';
import type { Logger } from '../logger.js';
import { callRoute, type RouteDeps } from '../rest/call-route.js';
import { FAMILIES } from '../rest/families/index.js';
import { DEFAULT_MAX_BODY_BYTES } from '../rest/router.js';
import { generatesKey, needsKey, planOf, type Tool } from './tools.js';
import { summaryOf } from './summaries.js';

export type ToolCallContext = {
  deps: RouteDeps;
  logger: Logger;
  principal: Principal;
  requestId: string;
  baseUrl: string;
};

const pick = (args: Record<string, unknown>, keys: string[]) =>
  Object.fromEntries(keys.filter((k) => args[k] !== undefined).map((k) => [k, args[k]]));

export async function callTool(
  ctx: ToolCallContext,
  tool: Tool,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const { route } = tool;
  try {
    const plan = planOf(route);
    const known = new Set([
      ...plan.params,
      ...plan.query,
      ...(plan.body === 'whole' ? ['payload'] : plan.body),
      'idempotency_key',
    ]);
    const unknown = Object.keys(args).filter((k) => !known.has(k));
    if (unknown.length) {
      throw new AppError(
        'invalid_request',
        `Invalid request. ${unknown.map((k) => `${k}: is not a known field`).join('; ')}`,
      );
    }
    const params = pick(args, plan.params);
    const body =
      plan.body === 'whole' ? args.payload : route.body ? pick(args, plan.body) : undefined;
    // The route's body limit holds for tools too (16 KB for engine events).
    if (
      Buffer.byteLength(JSON.stringify(body ?? null)) >
      (route.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES)
    ) {
      throw new AppError('payload_too_large', 'The request body is too large.');
    }
    const given = args.idempotency_key;
    if (needsKey(route) && given === undefined) {
      throw invalidRequest([
        {
          field: 'idempotency_key',
          code: 'required',
          message:
            'is required: make one key per intended movement and send the same key again when retrying it',
        },
      ]);
    }
    const out = await callRoute(ctx.deps, route, {
      principal: ctx.principal,
      requestId: ctx.requestId,
      baseUrl: ctx.baseUrl,
      path: route.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
        encodeURIComponent(String(params[name] ?? '')),
      ),
      params,
      query: pick(args, plan.query),
      body,
      idempotencyKey:
        typeof given === 'string' ? given : generatesKey(route) ? randomUUID() : undefined,
    });
    const answer = out.body !== undefined ? out.body : (JSON.parse(out.json) as unknown);
    if (out.status >= 400) return errorResult(out.status, answer);
    // One result shape for every tool: the establishment family's bare bodies (an array, a
    // record) go under `data`, as the partner family's already are.
    const json = (route.family === 'partner' ? answer : { data: answer }) as Record<
      string,
      unknown
    >;
    // A repeat the operation itself answered (the engine's frozen result) is a replay too: the
    // text and the answer's `replayed` must agree.
    const replayed =
      out.headers['idempotent-replay'] === 'true' ||
      (json.data as { replayed?: unknown } | undefined)?.replayed === true;
    const text = await summaryOf(route, out.status, replayed, json, {
      deps: ctx.deps,
      call: { principal: ctx.principal, requestId: ctx.requestId, baseUrl: ctx.baseUrl },
    });
    return { content: [{ type: 'text', text }], structuredContent: json };
  } catch (error) {
    const e = asAppError(error, ctx.logger, ctx.requestId);
    const family = FAMILIES[route.family];
    return errorResult(family.status(e, route), family.errorBody(e, ctx.requestId, route));
  }
}

type ErrorBody = {
  error?: string | { code: string; message: string };
  code?: string;
  message?: string;
};

/**
 * An error in the route's family's body (the partner envelope, the establishment `{ error,
 * message, code }`, `{ message }` or its 422 field map), named the same way for every tool.
 */
function errorResult(status: number, envelope: unknown): CallToolResult {
  const body = envelope as ErrorBody;
  const nested = typeof body.error === 'object' ? body.error : undefined;
  const code = nested?.code ?? body.code ?? (status === 422 ? 'VALIDATION_ERROR' : 'ERROR');
  const message = nested?.message ?? body.message ?? 'Invalid fields: see the body.';
  return {
    isError: true,
    content: [
      { type: 'text', text: `Error ${status} ${code}: ${message}\n${JSON.stringify(envelope)}` },
    ],
  };
}
