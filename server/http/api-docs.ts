import { createRequire } from 'node:module';
import path from 'node:path';
import express, { Router } from 'express';
import { buildOpenApi } from '../../contract/openapi.js';

const swaggerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Credential Service API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="api"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script></body></html>`;

const init = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#api', deepLinking: true });`;

/** `/openapi.json` and a rendered reference at `/docs`, served from local files: no internet needed. */
export function apiDocsRouter(publicUrl: string): Router {
  const document = { ...buildOpenApi(), servers: [{ url: publicUrl }] };
  const router = Router();
  router.get('/openapi.json', (_req, res) => res.json(document));
  router.get('/docs', (_req, res) => res.type('html').send(page));
  router.get('/docs/init.js', (_req, res) => res.type('application/javascript').send(init));
  router.use('/docs/assets', express.static(swaggerDir, { index: false, maxAge: '1d' }));
  return router;
}
