// GET /: a small front door for a person who opens the server's address in a browser, linking
// what there is to read and use. Programs keep asking /openapi.json; an Accept: application/json
// request gets the same links as JSON.
import type { RequestHandler } from 'express';
import { baseUrlOf } from '../http/base-url.js';
import { escapeHtml } from './html.js';

type Link = { href: string; title: string; text: string };

const links = (graphiql: boolean): Link[] => [
  {
    href: '/docs',
    title: 'API reference',
    text: 'Every partner route, tried from the browser (Swagger UI).',
  },
  {
    href: '/api/v1/guide',
    title: 'Integration guide',
    text: 'From a key to a delivered order, in curl.',
  },
  {
    href: '/openapi.json',
    title: 'OpenAPI (partner API)',
    text: 'The machine-readable contract of /api/v1.',
  },
  {
    href: '/openapi/establishment.json',
    title: 'OpenAPI (establishment API)',
    text: 'The management API.',
  },
  {
    href: '/admin',
    title: 'Backoffice',
    text: 'For staff: tenants, keys, engine definitions, orders.',
  },
  ...(graphiql
    ? [
        {
          href: '/graphql',
          title: 'GraphiQL',
          text: 'The GraphQL schema, explored and queried with a key (development only).',
        },
      ]
    : []),
  {
    href: '/api/mcp/tools',
    title: 'MCP tools',
    text: 'The agent tools and their JSON Schemas (MCP at POST /api/mcp).',
  },
  {
    href: '/readyz',
    title: 'Readiness',
    text: 'Database, migrations and Redis, as a load balancer sees them.',
  },
];

export const landingPage =
  (options: { graphiql: boolean; publicBaseUrl?: string | undefined }): RequestHandler =>
  (req, res) => {
    const list = links(options.graphiql);
    if (req.accepts(['html', 'json']) === 'json')
      return void res.json({ name: 'Partner Rewards', links: list });
    const base = baseUrlOf(req, options.publicBaseUrl);
    const items = list
      .map(
        (l) =>
          `<li><a href="${escapeHtml(l.href)}">${escapeHtml(l.title)}</a> — ${escapeHtml(l.text)}</li>`,
      )
      .join('\n');
    res.type('html').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Partner Rewards</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:44rem;padding:0 1rem;line-height:1.5}
code{background:#f4f4f4;padding:.1rem .3rem;border-radius:.2rem}li{margin:.4rem 0}</style></head>
<body>
<h1>Partner Rewards</h1>
<p>Coins, prizes and engine rules for casino partners: REST under <code>${escapeHtml(base)}/api/v1</code>, GraphQL at <code>/graphql</code>, MCP tools at <code>/api/mcp</code>.</p>
<ul>
${items}
</ul>
<p>Every API call sends <code>Authorization: Bearer svc_…</code>. No key yet? <code>npm run admin -- demo</code> mints a test key.</p>
</body></html>`);
  };
