import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { ProductPages } from './product-page';
import { isBackendPath, normalisePath } from './routes';

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>NFL Shop</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; padding: 0 1rem">
<h1>The web app is not built yet</h1><p>The gateway is running and the API is available under <code>/api</code>,
but there is no built web app to serve. Build it (<code>npm run build</code>) or run <code>npm start</code>, then
reload this page.</p>
</body></html>
`;

const segmentPattern = (segment: string) =>
  segment.startsWith(':') ? '[^/]+' : segment.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The prerendered file for this request, or undefined: web/prerender.mjs lists the landing pages it prerendered in
 * prerendered/routes.json (each route, with `:name` for one path segment, and its HTML file under webDist). Only for
 * a URL without a query string: the page was rendered from its path alone, and a query (a collection's filters) would
 * make the app render something else than the HTML, which it then could not hydrate. Read per navigation (a few
 * hundred bytes), so a rebuild of web/dist while the gateway runs is served at once, as index.html is.
 */
async function prerenderedFile(webDist: string, req: Request): Promise<string | undefined> {
  if (req.originalUrl.includes('?')) return undefined;
  let pages: Array<{ route: string; file: string }>;
  try {
    pages = JSON.parse(await readFile(path.join(webDist, 'prerendered', 'routes.json'), 'utf8'));
  } catch {
    return undefined; // an older build, or none: index.html serves every page
  }
  const requested = normalisePath(req.path);
  const page = pages.find(({ route }) =>
    new RegExp(`^${route.split('/').map(segmentPattern).join('/')}$`).test(requested),
  );
  return page && path.join(webDist, page.file);
}

/** The product id of a product page's path (its query, such as a shared link's tracking, changes nothing on it). */
function productIdOf(path: string): string | undefined {
  try {
    return decodeURIComponent(/^\/product\/([^/]+)\/?$/i.exec(path)?.[1] ?? '') || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Serves the built SPA: files from webDist (hashed /assets/* cached for a year, everything else
 * revalidated), and for any other GET/HEAD outside /api and /uploads a landing page's prerendered HTML when
 * the build made one for it, else index.html (history fallback for deep links); a product page rendered with its
 * product when it can (`productPages`, product-page.ts; without it, the prerendered frame). Without a build it answers
 * a small placeholder page instead of failing.
 */
export function staticSpa(webDist: string, { productPages }: { productPages?: ProductPages } = {}): RequestHandler {
  const assetsDir = path.join(webDist, 'assets') + path.sep;
  const indexFile = path.join(webDist, 'index.html');

  const files = express.static(webDist, {
    index: false,
    redirect: false,
    cacheControl: false,
    dotfiles: 'ignore',
    setHeaders: (res, filePath) => {
      res.setHeader(
        'Cache-Control',
        filePath.startsWith(assetsDir) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });

  const sendPage = (file: string, res: Response, next: NextFunction): void => {
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(file, { cacheControl: false }, (err?: NodeJS.ErrnoException) => {
      if (!err || res.headersSent) return;
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') res.status(200).type('html').send(NOT_BUILT_PAGE);
      else next(err);
    });
  };

  return (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isBackendPath(req.path)) return next();
    files(req, res, (err?: unknown) => {
      if (err) return next(err);
      // A missing hashed asset is a 404, not HTML the browser would try to run as a script.
      if (normalisePath(req.path).startsWith('/assets/')) return next();
      const productId = productPages && productIdOf(req.path);
      const rendered = productId ? productPages.render(productId, `${req.protocol}://${req.get('host')}`) : undefined;
      Promise.resolve(rendered)
        .then(async (html) => {
          if (html === undefined) return sendPage((await prerenderedFile(webDist, req)) ?? indexFile, res, next);
          res.setHeader('Cache-Control', 'no-cache');
          res.type('html').send(html);
        })
        .catch(next);
    });
  };
}
