import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Router } from 'express';
import { sendError } from '../errors';
import { pathOf } from '../routes';
import type { Logger } from 'pino';

/**
 * Where the build writes the merged document (scripts/openapi.mjs): gateway/dist/openapi.json, found from
 * gateway/dist/api-docs (the built gateway) and from gateway/src/api-docs (tests running the sources) alike.
 */
export const API_DOCUMENT_FILE = path.resolve(__dirname, '../../dist/openapi.json');

const NOT_BUILT = 'The API description was not built';

/** The page: swagger-ui's own bundle and styles, served from the npm package (no CDN), started by init.js. */
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8" /><title>Gridiron Store API</title>
<link rel="stylesheet" href="swagger-ui.css" /><link rel="stylesheet" href="index.css" />
<link rel="icon" type="image/png" href="favicon-32x32.png" sizes="32x32" /></head>
<body><div id="swagger-ui"></div><script src="swagger-ui-bundle.js"></script><script src="init.js"></script></body>
</html>
`;

/** A script file, not inline: the site's CSP allows scripts from 'self' only. No validator badge (it would call out). */
const INIT = `window.ui = SwaggerUIBundle({
  url: '/api/docs',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

/** The only files of swagger-ui-dist the page loads (not its index.html, which points at a remote example). */
const ASSETS = ['swagger-ui.css', 'index.css', 'swagger-ui-bundle.js', 'favicon-32x32.png'];

/**
 * GET /api/docs: the merged OpenAPI document, read once at start (503 JSON when the build did not write it: the
 * shop runs without it). GET /api/docs/ui/: the browsable page, under the site's own CSP. Mounted at /api/docs.
 */
export function apiDocs(logger: Logger, file = API_DOCUMENT_FILE): Router {
  let document: string | undefined;
  try {
    document = JSON.stringify(JSON.parse(readFileSync(file, 'utf8')));
  } catch (err) {
    logger.error({ file, err }, `${NOT_BUILT}: GET /api/docs answers 503 (run node scripts/build.mjs)`);
  }
  const assets = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const router = Router({ caseSensitive: false, strict: false });

  router.get('/', (_req, res) => {
    if (document === undefined) return void sendError(res, 503, NOT_BUILT);
    res.set('Cache-Control', 'no-cache').type('json').send(document);
  });
  router.get('/ui', (req, res) => {
    // Relative asset URLs need the trailing slash.
    if (!pathOf(req.originalUrl).endsWith('/')) return res.redirect(301, '/api/docs/ui/');
    res.set('Cache-Control', 'no-cache').type('html').send(PAGE);
  });
  router.get('/ui/init.js', (_req, res) => {
    res.set('Cache-Control', 'no-cache').type('js').send(INIT);
  });
  for (const asset of ASSETS) {
    router.get(`/ui/${asset}`, (_req, res, next) => {
      res.sendFile(asset, { root: assets, maxAge: '1h', dotfiles: 'deny' }, (err) => err && next(err));
    });
  }
  return router;
}
