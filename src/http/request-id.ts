import { randomBytes } from 'node:crypto';
import { ServerResponse } from 'node:http';
import type { RequestHandler, Response } from 'express';
import { locals } from './locals.js';

// Unique without a random draw per request: 64 random bits per process, then a counter (the
// same 32 hex digits as before). Request ids name log lines; they are not secrets.
const PROCESS_PART = randomBytes(8).toString('hex');
let counter = 0n;
export const newRequestId = (): string =>
  `req_${PROCESS_PART}${(counter++).toString(16).padStart(16, '0')}`;

/**
 * A client's own X-Request-Id, when well formed (8-128 characters of letters, digits and
 * `._:-`: UUIDs, ULIDs, trace ids), so one id follows the call through both systems' logs.
 * Anything else is replaced, never echoed: it would land in our logs and headers.
 */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{7,127}$/;

/**
 * Every response carries x-request-id (the error envelope and the log line repeat it) and
 * `Server-Timing: app;dur=<ms>`: the time from the request's arrival to its headers, which
 * browsers' developer tools show and the benchmarks read as the server's time.
 */
export const requestId: RequestHandler = (req, res, next) => {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : newRequestId();
  const l = locals(res);
  l.requestId = id;
  l.startedAt = process.hrtime.bigint();
  res.setHeader('x-request-id', id);
  // Node sends every response's headers through writeHead (res.end calls it when no one has).
  res.writeHead = timedWriteHead;
  next();
};

/** Node's writeHead, after adding Server-Timing (one function for all responses, no closure each). */
const nodeWriteHead = ServerResponse.prototype.writeHead;
const timedWriteHead = function (this: Response, ...args: unknown[]) {
  const ms = Number(process.hrtime.bigint() - locals(this).startedAt) / 1e6;
  this.setHeader('server-timing', `app;dur=${ms.toFixed(1)}`);
  return (nodeWriteHead as (...a: unknown[]) => Response).apply(this, args);
} as Response['writeHead'];
