// The one error model. Domain code throws AppError with a code from this list; each transport
// maps it to its own wire shape (rest/families/, the GraphQL error formatter, and the MCP tool
// errors), so a code means the same thing everywhere.

import type { Db } from './db.js';

/**
 * Every error code the service returns, with its kind: what the refusal is about, independent of
 * any wire. Each transport turns a kind (or a code) into its own status: the partner API answers
 * an order-state refusal 409 where the establishment API answers 400 (rest/families/).
 */
export const ERROR_CODES = {
  invalid_request: 'invalid',
  invalid_json: 'invalid',
  payload_too_large: 'invalid',
  override_not_allowed: 'invalid',
  invalid_points: 'invalid',
  /** An establishment import (isImport) that names no product to import. */
  invalid_import: 'invalid',
  missing_idempotency_key: 'invalid',
  invalid_idempotency_key: 'invalid',
  unauthorized: 'unauthenticated',
  forbidden: 'forbidden',
  not_found: 'not_found',
  method_not_allowed: 'method',
  conflict: 'conflict',
  idempotency_conflict: 'conflict',
  idempotency_in_progress: 'conflict',
  insufficient_balance: 'state',
  out_of_stock: 'state',
  customer_not_eligible: 'state',
  invalid_transition: 'state',
  order_not_cancellable: 'state',
  order_not_editable: 'state',
  billing_blocked: 'state',
  duplicate_reservation: 'state',
  award_already_claimed: 'state',
  award_expired: 'state',
  budget_exhausted: 'state',
  no_game_credits: 'state',
  /** A coin hold past its expiry: it released itself (docs/expiry-and-holds.md). */
  hold_expired: 'state',
  /** A coin hold already captured or released. */
  hold_not_active: 'state',
  /**
   * The responsible-gaming gate refused an incentive (docs/compliance.md): 409 on both families,
   * because the state is the player's, not the record's (a claim's award is fine).
   */
  rg_blocked: 'conflict',
  unsupported_media_type: 'media',
  rate_limited: 'rate_limited',
  headers_too_large: 'headers_too_large',
  internal_error: 'internal',
  service_unavailable: 'unavailable',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;
export type ErrorKind = (typeof ERROR_CODES)[ErrorCode];

/**
 * The rule a field broke, for programs (the message is for people). One wording per rule: the
 * zod messages in domain/validation.ts are the wording, and every hand-written issue picks the
 * rule it enforces.
 */
export const FIELD_RULES = [
  'required', // absent
  'type', // present but of the wrong JSON type
  'too_small', // a number, string or list below its minimum
  'too_big', // above its maximum
  'enum', // not one of the allowed values
  'format', // a string that is not a uuid, date-time, e-mail, country code…
  'unknown_field', // a field the route does not take
  'blank', // only white space
  'conflict', // valid alone, not with another field (`a` or `b`, not both; one of them needed)
  'invalid', // any other rule; the message says which
] as const;
export type FieldRule = (typeof FIELD_RULES)[number];

export type FieldIssue = { field: string; code: FieldRule; message: string };

export class AppError extends Error {
  readonly code: ErrorCode;
  /** Extra response headers (Retry-After on a 429, Allow on a 405). */
  readonly headers: Record<string, string>;
  /** Per-field validation problems, for transports that list them separately. */
  readonly issues: FieldIssue[];
  /** What was not found (`Customer`, `Sub-brand`…), for wires that name it in a code. */
  readonly resource: string | undefined;
  /**
   * A record the refusal leaves although it rolls its transaction back (the responsible-gaming
   * gate's decision row): whoever rolled back a transaction it did not open writes it after,
   * on its own connection (exactly-once/keyed-requests.ts).
   */
  readonly afterRollback: ((db: Db) => Promise<void>) | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      headers?: Record<string, string>;
      issues?: FieldIssue[];
      resource?: string;
      cause?: unknown;
      afterRollback?: (db: Db) => Promise<void>;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.headers = options.headers ?? {};
    this.issues = options.issues ?? [];
    this.resource = options.resource;
    this.afterRollback = options.afterRollback;
  }

  get kind(): ErrorKind {
    return ERROR_CODES[this.code];
  }

  /** Only internal failures may succeed when retried unchanged (spec: Errors, Rules). */
  get retryable(): boolean {
    return this.kind === 'internal' || this.kind === 'unavailable';
  }
}

/**
 * How to find the right id, for the records callers most often get wrong: an agent or a program
 * holding a customer has two ids, and another tenant's records are simply not there.
 */
const NOT_FOUND_HINTS: Record<string, string> = {
  Customer:
    "Use the customer's `id` (a UUID from listing or creating customers), not its external_id; " +
    "another sub-brand's or environment's customers are not found either.",
  Order: "Use the order's `id` (a UUID from reserving or listing orders).",
  'Order reservation': "Use an order's `reservation_id`.",
  Product:
    'Only products listed for this key’s sub-brand and market are found; search products for ids.',
  Listing: 'Use a `listing_market_id` from a product this key can see.',
  'Event definition':
    'Only active definitions are found; list the event definitions for their codes.',
};

export const notFound = (what: string): AppError =>
  new AppError(
    'not_found',
    NOT_FOUND_HINTS[what] ? `${what} not found. ${NOT_FOUND_HINTS[what]}` : `${what} not found.`,
    { resource: what },
  );

/** Builds the invalid_request error from field issues, naming each field and why. */
export function invalidRequest(issues: FieldIssue[]): AppError {
  const text = issues.map((i) => (i.field ? `${i.field}: ${i.message}` : i.message)).join('; ');
  return new AppError('invalid_request', `Invalid request. ${text}`, { issues });
}

/** A page cursor this API did not issue (or one of another list's). */
export const invalidCursor = (field = 'cursor'): AppError =>
  invalidRequest([{ field, code: 'format', message: 'is not a cursor this API issued' }]);
