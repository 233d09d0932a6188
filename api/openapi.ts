// openapi.yaml is the single source of truth of the HTTP interface: it drives request
// validation, the served documents and the docs page.
import express, { Router } from 'express';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import YAML from 'yaml';
import { ROOT } from '../stack/config.ts';

export const OPENAPI_PATH = path.join(ROOT, 'openapi.yaml');

export function loadOpenApi(): { text: string; doc: Record<string, unknown> } {
  const text = fs.readFileSync(OPENAPI_PATH, 'utf8');
  return { text, doc: YAML.parse(text) as Record<string, unknown> };
}

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Cellar API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#ui', deepLinking: true,
      persistAuthorization: true, tryItOutEnabled: true });
  </script>
</body>
</html>`;

/** GET /openapi.yaml, GET /openapi.json and the interactive reference at GET /docs (offline). */
export function openApiRoutes(spec: { text: string; doc: Record<string, unknown> }): Router {
  const r = Router();
  const swaggerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  r.get('/openapi.yaml', (_req, res) => {
    res.type('application/yaml').send(spec.text);
  });
  r.get('/openapi.json', (_req, res) => {
    res.json(spec.doc);
  });
  r.get(['/docs', '/docs/'], (_req, res) => {
    res.type('text/html').send(DOCS_PAGE);
  });
  r.use('/docs/assets', express.static(swaggerDir, { index: false, maxAge: '1h' }));
  return r;
}
