// GET /store/{storeId}?session=…: the embedded marketplace page a store session opens. No API
// key: the signed session is the credential. Every value is escaped.
import { Router } from 'express';
import { AppError } from '../domain/errors.js';
import { httpStatus } from '../http/status.js';
import { storeFront } from '../domain/store-sessions/store-front.js';
import { verifyStoreSession } from '../domain/store-sessions/store-session.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { escapeHtml } from './html.js';

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:60rem}
ul{list-style:none;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:1rem}
li{border:1px solid #ddd;border-radius:.5rem;padding:1rem}img{max-width:100%}</style></head>
<body>${body}</body></html>`;

export function storeRouter(deps: { prisma: PrismaClient; now: () => Date }): Router {
  const router = Router();
  router.get('/store/:storeId', async (req, res) => {
    const token = typeof req.query.session === 'string' ? req.query.session : '';
    try {
      const claims = await verifyStoreSession(deps.prisma, token, deps.now());
      if (claims.storeId !== req.params.storeId) {
        throw new AppError('unauthorized', 'Store session is for another store.');
      }
      const front = await storeFront(deps.prisma, claims);
      const items = front.items
        .map(
          (i) => `<li>${i.image ? `<img src="${escapeHtml(i.image)}" alt="">` : ''}
<h2>${escapeHtml(i.name)}</h2><p>${escapeHtml(i.attributes)}</p><p><strong>${i.coinPrice}</strong> coins</p></li>`,
        )
        .join('\n');
      res
        .set('cache-control', 'no-store')
        .type('html')
        .send(
          page(
            front.storeName,
            `<h1>${escapeHtml(front.storeName)}</h1>
<p>Hello ${escapeHtml(front.customerName)}: you have <strong>${front.balance}</strong> coins.</p>
<ul>${items}</ul>`,
          ),
        );
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      res
        .status(httpStatus(error))
        .type('html')
        .send(
          page(
            'Store',
            `<h1>This store link cannot be opened</h1><p>${escapeHtml(error.message)}</p>`,
          ),
        );
    }
  });
  return router;
}
