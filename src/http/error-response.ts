// Turns anything thrown into the AppError to answer with. Unknown errors become internal_error:
// logged in full here, never shown on the wire.
import { AppError } from '../domain/errors.js';
import type { Logger } from '../logger.js';
import { isDatabaseUnavailable, serviceUnavailable } from './db-outage.js';

export const invalidJson = () =>
  new AppError('invalid_json', 'The request body is not valid JSON.');
const payloadTooLarge = () => new AppError('payload_too_large', 'The request body is too large.');
const notUtf8Json = () =>
  new AppError('unsupported_media_type', 'The request body must be UTF-8 JSON.');

export function asAppError(error: unknown, logger: Logger, requestId: string): AppError {
  if (error instanceof AppError) return error;
  const e = error as { type?: string; status?: number; message?: string };
  // body-parser's errors
  if (e?.type === 'entity.parse.failed') return invalidJson();
  if (e?.type === 'entity.too.large') return payloadTooLarge();
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') return notUtf8Json();
  const clientFault = clientFaultOf(error);
  if (clientFault) return clientFault;
  // An outage is logged once by the app's DatabaseHealth, not here once per request.
  if (isDatabaseUnavailable(error)) return serviceUnavailable();
  logger.error({ msg: 'internal error', request_id: requestId, err: error });
  return new AppError(
    'internal_error',
    `Something went wrong on our side. Retry the request; quote ${requestId} if it persists.`,
  );
}

/**
 * Other requests that express and body-parser could not read are the client's fault, and they
 * say so with a 4xx `status`: a path segment that is not valid percent-encoding (`%ff`), a body
 * whose Content-Encoding does not decode (garbage gzip or br), a body shorter than its
 * Content-Length. Their own messages may quote the input or zlib's internals, so ours are fixed.
 */
function clientFaultOf(error: unknown): AppError | null {
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status !== 'number' || status < 400 || status > 499) return null;
  if (error instanceof URIError) {
    return new AppError('invalid_request', 'The path is not valid percent-encoded UTF-8.');
  }
  if (status === 413) return payloadTooLarge();
  if (status === 415) return notUtf8Json();
  return new AppError(
    'invalid_request',
    'The request body could not be read: check its Content-Encoding and Content-Length.',
  );
}
