// A REST route is one row: everything about it is said here once, and the express handler,
// OpenAPI, the docs and (later) the MCP tool are all derived from it (DESIGN.md).
import type { z } from 'zod';
import type { ErrorCode } from '../domain/errors.js';
import type { Principal } from '../domain/tenancy/authenticate-api-key.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { Scope } from '../domain/tenancy/scopes.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The two API families: wire formats over one machinery (rest/families/). */
export type ApiFamily = 'partner' | 'establishment';

export type RouteHints = {
  /** Reads only (MCP readOnlyHint); it spends the read budget, whatever its method. */
  readOnly?: boolean;
  /** Removes or cancels something (MCP destructiveHint: clients ask for confirmation). */
  destructive?: boolean;
  /** Repeating it with the same input has no further effect (MCP idempotentHint). */
  idempotent?: boolean;
  /**
   * It moves coins. Its MCP tool requires an `idempotency_key`: an agent that retries after a
   * timeout must say whether it means the same effect, and a generated key cannot.
   */
  movesCoins?: boolean;
};

type AnyObject = z.ZodObject<z.ZodRawShape>;

export type RouteInput<
  P extends AnyObject | undefined,
  Q extends AnyObject | undefined,
  B extends z.ZodType | undefined,
> = {
  params: P extends AnyObject ? z.output<P> : Record<string, never>;
  query: Q extends AnyObject ? z.output<Q> : Record<string, never>;
  body: B extends z.ZodType ? z.output<B> : undefined;
};

/** A partner route's body: `{ data, page? }`. Establishment routes answer their own shapes. */
export type RouteResult = {
  data: unknown;
  page?: { has_more: boolean; next_cursor: string | null };
};

/** Error bodies a route documents beyond its family's default (establishment routes). */
export type RouteWire = {
  /** Invalid input is 422 with a field map `{ field: [messages] }`. */
  validation?: 'field-map-422';
  /** These statuses answer `{ message }` only. */
  messageBody?: number[];
  /** These refusals answer 409 `PRODUCT_UNAVAILABLE` (the variant description's POST /orders/request). */
  unavailable?: ErrorCode[];
};

export type Route<
  P extends AnyObject | undefined = AnyObject | undefined,
  Q extends AnyObject | undefined = AnyObject | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
> = {
  /** operationId in OpenAPI and the tool name in MCP (snake_case). */
  name: string;
  family: ApiFamily;
  method: HttpMethod;
  /** OpenAPI-style path: /api/v1/customers/{id}. */
  path: string;
  scope: Scope;
  /** A platform-admin key may call it without `scope` (it acts on any establishment). */
  platformAdmin?: true;
  tag: string;
  summary: string;
  /** For people and agents: what it does, when to use it, units, and where its ids come from. */
  description: string;
  hints: RouteHints;
  /**
   * false: not an MCP tool. Webhook administration (secrets, replays) is for people and
   * programs; agents read the feed and the endpoints (docs/mcp.md).
   */
  mcp?: false;
  params?: P;
  query?: Q;
  body?: B;
  /** Optional request headers the operation reads itself (documented as header parameters). */
  headers?: { name: string; description: string; pattern: string }[];
  /** The HTTP Idempotency-Key layer (docs/idempotency.md). */
  idempotency: 'required' | 'optional' | 'none';
  /**
   * 'wrap' (default): the operation runs in the transaction that claims the Idempotency-Key.
   * 'self': it commits in steps of its own and is safe to resume (bulk adjustments).
   */
  transaction?: 'wrap' | 'self';
  /** Bodies above this are refused with payload_too_large. Default 64 KiB. */
  maxBodyBytes?: number;
  successStatus: 200 | 201;
  /**
   * The success body's payload (its family wraps it), for OpenAPI, the MCP output schema and the
   * contract test. Left out of a row, it is derived from `operation` (rest/wire-answer.ts).
   */
  response: z.ZodType;
  paginated?: boolean;
  /** Codes this route can return beyond the common ones (401, 403, 429, 500). */
  errors: ErrorCode[];
  wire?: RouteWire;
  /** The GraphQL document it executes against the one schema. */
  operation: string;
  variables: (
    input: RouteInput<P, Q, B>,
    call: {
      principal: Principal;
      /** The Idempotency-Key the layer used (null on routes without one). */
      idempotencyKey: string | null;
      /** The raw Idempotency-Key header, for routes that read it themselves (webhooks). */
      idempotencyHeader: string | null;
    },
  ) => Record<string, unknown>;
  /**
   * Called when the Idempotency-Key layer answers a stored response without running the
   * operation (the engine audits it; a repeat the operation ran into is audited there).
   */
  onStoredReplay?: (
    prisma: PrismaClient,
    principal: Principal,
    replay: { json: string; requestId: string; idempotencyKey: string },
  ) => Promise<void>;
  /**
   * For a route whose answer is the coin movement its operation writes last (`last` in the
   * ledger's MoveOptions): a GraphQL query of that movement by `$ref`, shaped like `operation`'s
   * data (alias the field), so `result` maps it. Then the Idempotency-Key record keeps the
   * movement's id instead of the body, written in the same round trip as the movement and the
   * COMMIT, and a replay renders it with this query (docs/idempotency.md). `result` must then not
   * depend on the call's `requestId`.
   */
  answerByReference?: { operation: string };
  /**
   * True for a call that only previews (a bulk adjustment's dry run): it moves nothing, so it runs
   * outside the Idempotency-Key layer and leaves its key unspent for the real call (issue 32: an
   * agent previews, then applies with the same key).
   */
  preview?: (input: RouteInput<P, Q, B>) => boolean;
  /**
   * Maps the operation's `data` to the wire body (partner rows: a RouteResult). Left out of a row,
   * it is derived with `response`: a row writes one only for a real value mapping, and says why.
   */
  result: (
    data: Record<string, unknown>,
    call: { requestId: string; input: RouteInput<P, Q, B> },
  ) => unknown;
};

/**
 * A row as written: `response` and `result` may be left out, and are then derived from the
 * operation (rest/wire-answer.ts, through defineRoute).
 */
export type RouteRow<
  P extends AnyObject | undefined = AnyObject | undefined,
  Q extends AnyObject | undefined = AnyObject | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
> = Omit<Route<P, Q, B>, 'response' | 'result'> &
  Partial<Pick<Route<P, Q, B>, 'response' | 'result'>>;

/** The rate budget a call spends: a GET, or a row marked read-only (a search sent as POST). */
export const unitOf = (route: Route): 'read' | 'write' =>
  route.method === 'GET' || route.hints.readOnly ? 'read' : 'write';
