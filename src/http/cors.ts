// CORS for browser clients, per configured origin (CORS_ORIGINS). Off by default: the partner API
// is meant for servers, since a key in a browser is a key published. An allowed origin may send
// the headers the API reads and read the ones it sets.
import cors from 'cors';
import type { RequestHandler } from 'express';

const ALLOWED_HEADERS = [
  'authorization',
  'content-type',
  'idempotency-key',
  'x-request-id',
  'mcp-session-id',
  'mcp-protocol-version',
];
const EXPOSED_HEADERS = [
  'x-request-id',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
  'idempotent-replay',
  'mcp-session-id',
];

export function corsFor(origins: string[]): RequestHandler | null {
  if (!origins.length) return null;
  return cors({
    origin: origins.includes('*') ? '*' : origins,
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
}
