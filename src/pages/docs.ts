// GET /docs: Swagger UI over both API families' documents (a selector at the top: the partner
// API's /openapi.json first, then /openapi/establishment.json), served from the swagger-ui-dist package itself, so
// the page works with no outside network (no CDN).
import express, { Router } from 'express';
import swaggerUi from 'swagger-ui-dist';

export function docsRouter(): Router {
  const router = Router();
  router.use(
    '/docs/assets',
    express.static(swaggerUi.getAbsoluteFSPath(), { index: false, maxAge: '1h' }),
  );
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
