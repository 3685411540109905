// GET /docs: Swagger UI over both API families' documents (a selector at the top: the partner
// API's /openapi.json first, then /openapi/establishment.json), served from the swagger-ui-dist package itself, so
// the page works with no outside network (no CDN).
import { createRequire } from 'node:module';
import path from 'node:path';
import express, { Router } from 'express';

// The package's folder, found without importing its main module: that loads the whole 1 MB
// browser bundle into the server (a fifth of a second at every start) just to learn a path.
const SWAGGER_UI_DIR = path.dirname(
  createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'),
);

export function docsRouter(): Router {
  const router = Router();
  router.use('/docs/assets', express.static(SWAGGER_UI_DIR, { index: false, maxAge: '1h' }));
  router.get('/docs', (_req, res) => {
    res.type('html').send(`<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Partner Rewards API reference</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`);
  });
  // A separate script file, so the page works under a strict Content-Security-Policy.
  router.get('/docs/init.js', (_req, res) => {
    res
      .type('application/javascript')
      .send(
        "window.ui = SwaggerUIBundle({ urls: [{ url: '/openapi.json', name: 'Partner API (/api/v1)' }, { url: '/openapi/establishment.json', name: 'Establishment API' }], dom_id: '#ui', deepLinking: true, persistAuthorization: true, presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });",
      );
  });
  return router;
}
