// The backoffice's built files sent as their brotli or gzip copies, made at build time by the
// `precompress` plugin of web/vite.config.ts: nothing is compressed per request, and a build
// without the copies is still served, uncompressed (docs/backoffice.md, "Speed").
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Request, RequestHandler, Response } from 'express';

/** The content codings a precompressed copy exists in, best first, with their file suffix. */
const CODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt)$/;

/**
 * The best coding the request accepts, by the server's order (brotli first) among those with a
 * q above 0. Not Express's `acceptsEncodings`: it ranks equal q values by the client's order,
 * and Chromium lists gzip before br.
 */
function acceptedCoding(req: Request): (typeof CODINGS)[number] | undefined {
  const header = req.headers['accept-encoding'];
  if (!header) return undefined;
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const weight = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
    if (name) q.set(name.trim(), weight ? Number(weight[1]) : 1);
  }
  return CODINGS.find((c) => (q.get(c.name) ?? q.get('*') ?? 0) > 0);
}

/** The precompressed copy of `file` to send for this request, with its coding, or the file. */
function negotiate(req: Request, res: Response, file: string) {
  if (!COMPRESSIBLE.test(file)) return { file, coding: undefined };
  res.vary('Accept-Encoding');
  const coding = acceptedCoding(req);
  if (coding && existsSync(file + coding.suffix)) return { file: file + coding.suffix, coding };
  return { file, coding: undefined };
}

/**
 * Before express.static on `root`: a request for a compressible file the client accepts in
 * brotli or gzip is rewritten to that copy, with the original's type and the content-encoding;
 * express.static then serves it with its caching headers.
 */
export function precompressed(root: string): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    let relative: string;
    try {
      relative = decodeURIComponent(req.path);
    } catch {
      return next();
    }
    const file = path.join(root, relative);
    if (!file.startsWith(root + path.sep)) return next();
    const chosen = negotiate(req, res, file);
    if (!chosen.coding) return next();
    res.type(path.extname(file));
    res.setHeader('content-encoding', chosen.coding.name);
    req.url = req.url.replace(/^[^?]*/, (p) => p + chosen.coding.suffix);
    next();
  };
}

/** Sends `file` (index.html, the favicon) as its precompressed copy when the client accepts one. */
export function sendPrecompressed(req: Request, res: Response, file: string): void {
  const chosen = negotiate(req, res, file);
  if (chosen.coding) {
    res.type(path.extname(file));
    res.setHeader('content-encoding', chosen.coding.name);
  }
  res.sendFile(chosen.file, (err) => {
    if (!err || res.headersSent) return;
    res.removeHeader('content-encoding');
    res.status(404).type('text').send('Not found.');
  });
}
