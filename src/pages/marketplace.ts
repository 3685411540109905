// The player marketplace's pages (docs/marketplace.md): GET /store/{storeId}?session=… (what a
// store session's and an iframe login's `url` open) and GET /track/{token} (an order's
// `trackUrl`), both the app built in marketplace/dist, with what it needs first in a JSON block
// (the page, the establishment's look and language; the session's token, which the app then
// sends as its bearer, never as a cookie). The app's files are under /marketplace/assets,
// compressed once at build time. Every page says who may frame it (CSP frame-ancestors: the
// establishment's allowlist).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express, { Router, type Request, type Response } from 'express';
import {
  establishmentLook,
  frameAncestors,
  type EstablishmentLook,
} from '../player/page-context.js';
import { trackingView } from '../domain/orders/tracking-view.js';
import { playerPrincipal } from '../domain/store-sessions/player-principal.js';
import { signedClaims } from '../domain/store-sessions/store-session.js';
import { preloadDocuments, type Preload } from '../graphql/preload.js';
import { locals } from '../http/locals.js';
import type { GraphQLContext } from '../schema/context.js';
import { AppError } from '../domain/errors.js';
import { demoMarketplaceSession } from '../player/demo-marketplace.js';
import { baseUrlOf } from '../http/base-url.js';
import type { PrismaClient } from '../generated/prisma/client.js';

export const MARKETPLACE_DIST = path.resolve(import.meta.dirname, '../../marketplace/dist');

/** What the app reads first (marketplace/src/boot.ts has the same type). */
type Boot =
  | ({
      page: 'store';
      token: string;
      environment: string;
      preloaded: Awaited<ReturnType<typeof preloadDocuments>>;
    } & Look)
  | ({
      page: 'track';
      tracking: Omit<Tracking, 'subBrandId' | 'environment' | 'operations'>;
    } & Look)
  | ({ page: 'ended'; environment: string } & Look)
  | { page: 'invalid'; lang: string };
type Look = EstablishmentLook;
type Tracking = Awaited<ReturnType<typeof trackingView>>;

const csp = (ancestors: string) =>
  [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    'img-src * data:',
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
    `frame-ancestors ${ancestors}`,
  ].join('; ');

/** What the app asks first (marketplace/src/app: App's Start, Shop's first page). */
const FIRST_DOCUMENTS: Preload[] = [
  { name: 'MarketplaceStart', variables: {} },
  {
    name: 'MarketplaceProducts',
    variables: { q: null, categoryId: null, affordable: null, first: 24 },
  },
];

export function marketplaceRouter(deps: {
  prisma: PrismaClient;
  now: () => Date;
  engine: GraphQLContext['engine'];
  dist?: string;
  /** Serve /marketplace/demo (development: a fresh session for the demo player). */
  demoLinks?: boolean;
  publicBaseUrl?: string | undefined;
}): Router {
  const router = Router();
  const dist = deps.dist ?? MARKETPLACE_DIST;
  const indexFile = path.join(dist, 'index.html');
  let template: string | undefined;
  const html = () => (template ??= readFileSync(indexFile, 'utf8'));

  router.use(
    '/marketplace/assets',
    precompressed(path.join(dist, 'assets')),
    express.static(path.join(dist, 'assets'), { index: false, immutable: true, maxAge: '1y' }),
  );

  const headersOf = (ancestors: string) => ({
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'content-security-policy': csp(ancestors),
  });
  /**
   * The page in two parts: everything before the JSON block at once (the browser starts on the
   * app's script and styles), the block when `boot` resolves. The block is the body's last
   * element, and the app's module script runs once the page is parsed, so it finds the block.
   */
  const send = async (
    res: Response,
    status: number,
    boot: Boot | Promise<Boot>,
    ancestors: string,
    lang = boot instanceof Promise ? 'en' : 'lang' in boot ? boot.lang : 'en',
  ) => {
    if (!existsSync(indexFile)) {
      res
        .status(503)
        .type('text')
        .send('The marketplace is not built yet: run `npm run marketplace:build`.');
      return;
    }
    const [before, after] = html().split('<!--boot-->') as [string, string];
    res.status(status).set(headersOf(ancestors)).type('html');
    res.write(before.replace('<html lang="en">', `<html lang="${lang}">`));
    // `<` escaped: the block cannot end early, whatever a name or a tracking number holds.
    const json = JSON.stringify(await boot).replace(/</g, '\\u003c');
    res.end(`<script type="application/json" id="boot">${json}</script>${after}`);
  };

  router.get('/store/:storeId', async (req: Request, res: Response) => {
    const token = typeof req.query.session === 'string' ? req.query.session : '';
    const now = deps.now();
    const claims = await signedClaims(deps.prisma, token);
    const look =
      claims &&
      (await establishmentLook(deps.prisma, claims.subBrandId, {
        id: claims.customerId,
        environment: claims.environment,
      }));
    if (!claims || !look || claims.storeId !== req.params.storeId) {
      return send(res, 404, { page: 'invalid', lang: 'en' }, "'none'");
    }
    const ancestors = frameAncestors(look.frameOrigins, claims.environment);
    let principal;
    try {
      principal = await playerPrincipal(deps.prisma, token, now);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // Expired or signed out: the page says so, and asks the host page for a new session.
      return send(res, 401, { page: 'ended', environment: claims.environment, ...look }, ancestors);
    }
    // The app's first documents, run while the page's head goes out: the app's first paint
    // needs no round trip, and its script is on the way meanwhile.
    const preloaded = preloadDocuments(
      deps,
      { principal, requestId: locals(res).requestId, baseUrl: baseUrlOf(req, deps.publicBaseUrl) },
      FIRST_DOCUMENTS,
    );
    await send(
      res,
      200,
      preloaded.then((p) => ({
        page: 'store' as const,
        token,
        environment: claims.environment,
        preloaded: p,
        ...look,
      })),
      ancestors,
      look.lang,
    );
  });

  // The demo player's marketplace, opened with a fresh session each time (development only):
  // `npm start` prints it. `?establishment=2` opens the second demo establishment's.
  if (deps.demoLinks) {
    router.get('/marketplace/demo', async (req: Request, res: Response) => {
      const which = req.query.establishment === '2' ? 1 : 0;
      const session = await demoMarketplaceSession(
        deps.prisma,
        baseUrlOf(req, deps.publicBaseUrl),
        which,
        deps.now(),
      );
      if (!session) throw new AppError('not_found', 'There is no demo tenant on this database.');
      res.redirect(303, session.path);
    });
  }

  router.get('/track/:token', async (req: Request, res: Response) => {
    let tracking;
    try {
      tracking = await trackingView(deps.prisma, String(req.params.token));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return send(res, 404, { page: 'invalid', lang: 'en' }, "'none'");
    }
    const look = (await establishmentLook(deps.prisma, tracking.subBrandId))!;
    const { reference, establishment, status, products, tracking: numbers, history } = tracking;
    send(
      res,
      200,
      {
        page: 'track',
        tracking: { reference, establishment, status, products, tracking: numbers, history },
        ...look,
      },
      frameAncestors(look.frameOrigins, tracking.environment),
    );
  });
  return router;
}

/** A file's .br or .gz twin, when the browser takes it (made at build time, vite.config.ts). */
function precompressed(dir: string) {
  return (req: Request, res: Response, next: () => void) => {
    const accepts = req.get('accept-encoding') ?? '';
    const file = path.join(dir, path.normalize(req.path));
    if (!file.startsWith(dir) || !/\.(js|css|svg)$/.test(file)) return next();
    for (const [encoding, suffix] of [
      ['br', '.br'],
      ['gzip', '.gz'],
    ] as const) {
      if (!accepts.includes(encoding) || !existsSync(file + suffix)) continue;
      res.set({
        'content-encoding': encoding,
        vary: 'Accept-Encoding',
        'cache-control': 'public, max-age=31536000, immutable',
      });
      res.type(path.extname(file));
      return res.sendFile(file + suffix);
    }
    next();
  };
}
