import { randomBytes } from 'node:crypto';
import type { RequestHandler } from 'express';
import { locals } from './locals.js';

export const newRequestId = (): string => `req_${randomBytes(16).toString('hex')}`;

/** Every response carries x-request-id; the error envelope and the log line repeat it. */
export const requestId: RequestHandler = (_req, res, next) => {
  const id = newRequestId();
  locals(res).requestId = id;
  locals(res).startedAt = process.hrtime.bigint();
  res.setHeader('x-request-id', id);
  next();
};
