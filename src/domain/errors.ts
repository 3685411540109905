// The one error model. Domain code throws AppError with a code from this list; each transport
// maps it to its own wire shape (rest/partner-errors.ts, the GraphQL error formatter, and the MCP
// tool errors), so a code means the same thing everywhere.

/** Every error code the service returns, with the HTTP status the partner API gives it. */
export const ERROR_CODES = {
  invalid_request: 400,
  invalid_json: 400,
  payload_too_large: 400,
  override_not_allowed: 400,
  invalid_points: 400,
  missing_idempotency_key: 400,
  invalid_idempotency_key: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  idempotency_conflict: 409,
  idempotency_in_progress: 409,
  insufficient_balance: 409,
  out_of_stock: 409,
  customer_not_eligible: 409,
  invalid_transition: 409,
  order_not_cancellable: 409,
  order_not_editable: 409,
  billing_blocked: 409,
  unsupported_media_type: 415,
  rate_limited: 429,
  headers_too_large: 431,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export type FieldIssue = { field: string; message: string };

export class AppError extends Error {
  readonly code: ErrorCode;
  /** Extra response headers (Retry-After on a 429, Allow on a 405). */
  readonly headers: Record<string, string>;
  /** Per-field validation problems, for transports that list them separately. */
  readonly issues: FieldIssue[];

  constructor(
    code: ErrorCode,
    message: string,
    options: { headers?: Record<string, string>; issues?: FieldIssue[]; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.headers = options.headers ?? {};
    this.issues = options.issues ?? [];
  }

  get status(): number {
    return ERROR_CODES[this.code];
  }

  /** Only internal failures may succeed when retried unchanged (spec: Errors, Rules). */
  get retryable(): boolean {
    return this.status >= 500;
  }
}

export const notFound = (what: string): AppError => new AppError('not_found', `${what} not found.`);

/** Builds the invalid_request error from field issues, naming each field and why. */
export function invalidRequest(issues: FieldIssue[]): AppError {
  const text = issues.map((i) => (i.field ? `${i.field}: ${i.message}` : i.message)).join('; ');
  return new AppError('invalid_request', `Invalid request. ${text}`, { issues });
}
