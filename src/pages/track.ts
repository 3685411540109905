// GET /track/{token}: the public order tracking page a reservation's `trackUrl` opens. No API
// key: the signed token is the credential (domain/orders/track-token.ts). It shows the order's
// status and history only, and every value is escaped.
import { Router } from 'express';
import { AppError } from '../domain/errors.js';
import { trackingView } from '../domain/orders/tracking-view.js';
import { httpStatus } from '../http/status.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { escapeHtml } from './html.js';

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:40rem}
td,th{padding:.25rem .75rem;text-align:left}</style></head>
<body>${body}</body></html>`;

export function trackRouter(deps: { prisma: PrismaClient }): Router {
  const router = Router();
  router.get('/track/:token', async (req, res) => {
    try {
      const v = await trackingView(deps.prisma, req.params.token);
      const rows = v.history
        .map(
          (h) =>
            `<tr><td>${escapeHtml(h.at.toISOString().replace('T', ' ').slice(0, 16))} UTC</td><td>${escapeHtml(h.what)}</td></tr>`,
        )
        .join('\n');
      res
        .set('cache-control', 'no-store')
        .set('referrer-policy', 'no-referrer')
        .type('html')
        .send(
          page(
            `Order ${v.reference ?? ''}`,
            `<h1>${escapeHtml(v.establishment)}: order ${escapeHtml(v.reference ?? '')}</h1>
<p>${v.products.map(escapeHtml).join(', ')}</p>
<p>Status: <strong id="status">${escapeHtml(v.status)}</strong></p>
${v.tracking.length ? `<p>Tracking number: <strong>${v.tracking.map(escapeHtml).join(', ')}</strong></p>` : ''}
<table><thead><tr><th>When</th><th>What</th></tr></thead><tbody>
${rows}
</tbody></table>`,
          ),
        );
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      res
        .status(httpStatus(error))
        .type('html')
        .send(page('Order tracking', '<h1>This tracking link cannot be opened</h1>'));
    }
  });
  return router;
}
