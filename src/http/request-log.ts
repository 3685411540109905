import type { RequestHandler, Response } from 'express';
import { destinationOf, timeOfLine, type Logger } from '../logger.js';
import { locals } from './locals.js';

/** One line per request: id, key, route, status, duration. Never the key or the body. */
export const requestLog = (logger: Logger): RequestHandler => {
  // The line is made here in one JSON.stringify, with the logger's fields (level, time, msg), and
  // handed to the logger's destination: pino's serializer walked its fields one by one and
  // would have redacted a line that holds only ids, a method, a route and numbers built here
  // (~5 % of a replayed request's CPU, issue 16). Its level is the logger's info.
  const destination = destinationOf(logger);
  // One listener for every response (no closure per request); `this` is the response.
  function logRequest(this: Response) {
    if (!logger.isLevelEnabled('info')) return;
    const l = locals(this);
    const ms = Number(process.hrtime.bigint() - l.startedAt) / 1e6;
    const line = JSON.stringify({
      level: 30,
      time: timeOfLine(),
      msg: 'request',
      request_id: l.requestId,
      method: this.req.method,
      route: l.routePattern ?? this.req.originalUrl.split('?')[0],
      status: this.statusCode,
      duration_ms: Math.round(ms * 10) / 10,
      key_id: l.principal?.keyId,
      sub_brand_id: l.principal?.subBrandId,
    });
    destination.write(`${line}\n`);
  }
  return (_req, res, next) => {
    res.on('finish', logRequest);
    next();
  };
};
