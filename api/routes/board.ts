// The web pages the API serves without a key: a landing page at / and the lab board at /lab
// (its bundle from web/dist; the page signs in with an API key held in the browser session).
import path from 'node:path';
import express, { Router, type Response } from 'express';
import type { Config } from '../../stack/config.ts';
import { BOARD_DIST, boardBuilt, buildBoard } from '../../web/build.ts';

const esc = (v: string) => v.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// Nothing from elsewhere; inline styles only for the timeline's bar positions.
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

function page(res: Response, html: string) {
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', 'no-cache');
  res.type('text/html').send(html);
}

const BOARD_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Cellar lab board</title>
  <link rel="stylesheet" href="/lab/assets/board.css">
</head>
<body>
  <div id="app"><noscript>The lab board needs JavaScript.</noscript></div>
  <script type="module" src="/lab/assets/main.js"></script>
</body>
</html>`;

let building: Promise<void> | null = null;

export function boardRoutes(config: Config): Router {
  const r = Router();
  r.get('/', (req, res) => {
    const temporalUi = `http://${req.hostname}:${config.temporalUiPort}`;
    page(
      res,
      `<!doctype html>
<html lang="en"><head><meta charset="utf-8">` +
        `<meta name="viewport" content="width=device-width, initial-scale=1"><title>Cellar</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#111}` +
        `a{color:#0050b3}</style></head>
<body><h1>Cellar</h1><p>A self-hosted service for battery-cell labs.</p><ul>
<li><a href="/lab">Lab board</a>: the lab on one page (sign in with an API key)</li>
<li><a href="/docs">API reference</a> (<a href="/openapi.yaml">openapi.yaml</a>)</li>
<li><a href="${esc(temporalUi)}">Temporal Web UI</a>: workflows of simulations, pipelines and uploads</li>
</ul></body></html>`,
    );
  });
  r.get(['/lab', '/lab/'], (_req, res) => page(res, BOARD_PAGE));
  // A clean clone started without provisioning bundles the board once, on its first request.
  r.use(
    '/lab/assets',
    async (_req, _res, next) => {
      if (!boardBuilt()) {
        building ??= buildBoard().finally(() => (building = null));
        await building;
      }
      next();
    },
    express.static(path.resolve(BOARD_DIST), { index: false, maxAge: '5m', fallthrough: false }),
  );
  return r;
}
