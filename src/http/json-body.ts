// A route's JSON body. The common request (Content-Type application/json in UTF-8, a
// Content-Length within the route's limit, no Content-Encoding) is read here in a few lines;
// anything else (chunked, compressed, another charset, over the limit) goes to express.json,
// whose answers for those cases stay as they were. Same results either way: no body leaves
// `undefined`, an empty one is `{}`, a byte-order mark is dropped, and the top level must be
// an object or an array. body-parser's read was 11 % of a coin adjustment's server CPU,
// inclusive (docs/performance.md).
import express, { type Request, type RequestHandler, type Response } from 'express';
import { invalidJson } from './error-response.js';

const FAST_TYPES = new Set(['application/json', 'application/json;charset=utf-8']);

export class JsonBodyReader {
  private readonly fallback: RequestHandler;

  constructor(private readonly limit: number) {
    this.fallback = express.json({ limit, strict: true });
  }

  /** The parsed body, or undefined when the request has none or it is not JSON. */
  read(req: Request, res: Response): Promise<unknown> {
    const length = fastLength(req, this.limit);
    if (length === null) {
      return new Promise((resolve, reject) =>
        this.fallback(req, res, (error?: unknown) => (error ? reject(error) : resolve(req.body))),
      );
    }
    return readFully(req, length).then(parseJson);
  }
}

/** The Content-Length when the request is the common case read here, else null. */
function fastLength(req: Request, limit: number): number | null {
  const h = req.headers;
  if (h['transfer-encoding'] !== undefined) return null;
  if (h['content-encoding'] !== undefined && h['content-encoding'] !== 'identity') return null;
  const type = h['content-type'];
  if (type === undefined || !FAST_TYPES.has(type.toLowerCase().replace(/\s+/g, ''))) return null;
  const length = Number(h['content-length']);
  return Number.isInteger(length) && length >= 0 && length <= limit ? length : null;
}

function readFully(req: Request, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
    };
    const onEnd = () => {
      done();
      // Node's parser delivers exactly Content-Length bytes; a shorter body ends in 'close'.
      if (received !== length) return reject(unreadable());
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
    };
    const onFail = () => {
      done();
      reject(unreadable());
    };
    const done = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onFail);
      req.off('close', onFail);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onFail);
    req.on('close', onFail);
  });
}

/** A body the client did not finish sending: answered as express's 4xx read errors are. */
const unreadable = () => Object.assign(new Error('request aborted'), { status: 400 });

function parseJson(body: Buffer): unknown {
  let text = body.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.length === 0) return {}; // as body-parser: an empty body is a common client mistake
  // Whitespace may come first (JSON.parse refuses what JSON's grammar does not allow), then an
  // object or an array: a bare value at the top is refused, as express.json's strict mode does.
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') throw invalidJson();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalidJson();
  }
}
