// Turns anything thrown into the AppError to answer with. Unknown errors become internal_error:
// logged in full here, never shown on the wire.
import { AppError } from '../domain/errors.js';
import type { Logger } from '../logger.js';

export function asAppError(error: unknown, logger: Logger, requestId: string): AppError {
  if (error instanceof AppError) return error;
  const e = error as { type?: string; status?: number; message?: string };
  // body-parser's errors
  if (e?.type === 'entity.parse.failed')
    return new AppError('invalid_json', 'The request body is not valid JSON.');
  if (e?.type === 'entity.too.large')
    return new AppError('payload_too_large', 'The request body is too large.');
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') {
    return new AppError('unsupported_media_type', 'The request body must be UTF-8 JSON.');
  }
  logger.error({ msg: 'internal error', request_id: requestId, err: error });
  return new AppError(
    'internal_error',
    `Something went wrong on our side. Retry the request; quote ${requestId} if it persists.`,
  );
}
