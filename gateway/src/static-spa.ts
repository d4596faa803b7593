import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import compression from 'compression';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import Negotiator from 'negotiator';
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

/**
 * The compressed variants the web build writes beside each text file of web/dist (web/precompress.mjs), by their
 * Content-Encoding; the order is the gateway's preference when a client accepts several equally (Brotli is smaller).
 */
const VARIANTS: Record<string, string> = { br: '.br', gzip: '.gz' };
const PREFERRED = [...Object.keys(VARIANTS), 'identity'];

/** What to send for a file of web/dist: the file or one of its variants, and whether the answer varies by encoding. */
interface Representation {
  file: string;
  encoding?: string;
  vary: boolean;
}

/**
 * The best representation of `file` this client accepts (negotiator reads Accept-Encoding's q-values, `identity` and
 * `*`): a variant the build wrote, else the file itself. A client that refuses every one the file has (identity;q=0
 * with no variant it takes) still gets the file, as serve-static would send it. Only files with a variant vary.
 */
async function representationOf(req: Request, file: string): Promise<Representation> {
  const available = (
    await Promise.all(
      Object.entries(VARIANTS).map(([encoding, suffix]) =>
        stat(file + suffix).then(
          (s) => (s.isFile() ? encoding : undefined),
          () => undefined,
        ),
      ),
    )
  ).filter((encoding): encoding is string => encoding !== undefined);
  if (!available.length) return { file, vary: false };
  // negotiator 0.6.4 takes the preferred order (as `compression` passes it); @types/negotiator 0.6 does not say so
  const negotiate = Negotiator.prototype.encoding as (available: string[], preferred: string[]) => string | undefined;
  const encoding = negotiate.call(new Negotiator(req), [...available, 'identity'], PREFERRED);
  return encoding && encoding !== 'identity'
    ? { file: file + VARIANTS[encoding], encoding, vary: true }
    : { file, vary: true };
}

/** The file under webDist a request's path names, or undefined (a malformed escape, a path out of webDist). */
function fileOf(webDist: string, requestPath: string): string | undefined {
  try {
    const file = path.join(webDist, decodeURIComponent(requestPath));
    return file.startsWith(webDist + path.sep) && !file.includes('\0') ? file : undefined;
  } catch {
    return undefined;
  }
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
 *
 * A file with compressed variants (web/precompress.mjs: every text file of a build) is sent as the variant the client
 * accepts (Content-Encoding, Vary: Accept-Encoding; the variant's own ETag and Last-Modified, serve-static's as for any
 * file); anything else it sends that is compressible (a product page rendered per request, a build without variants)
 * is compressed as it goes by `compression`, which leaves an answer already encoded alone.
 */
export function staticSpa(webDist: string, { productPages }: { productPages?: ProductPages } = {}): RequestHandler {
  const root = path.resolve(webDist);
  const assetsDir = path.join(root, 'assets') + path.sep;
  const indexFile = path.join(root, 'index.html');
  const compress = compression();

  /** The encoding of the variant a response of express.static below is sending, set when the variant was chosen. */
  const chosen = new WeakMap<Response, { encoding: string; type: string }>();
  const files = express.static(root, {
    index: false,
    redirect: false,
    cacheControl: false,
    dotfiles: 'ignore',
    setHeaders: (res, filePath) => {
      const original = filePath.replace(/\.(br|gz)$/, '');
      res.setHeader(
        'Cache-Control',
        original.startsWith(assetsDir) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
      const variant = chosen.get(res);
      if (variant && original !== filePath) {
        res.setHeader('Content-Encoding', variant.encoding);
        res.type(variant.type);
      }
    },
  });

  /** Serves the request's file (its best variant), or calls next when webDist has none (to the SPA's pages). */
  const serveFile = async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const file = fileOf(root, req.path);
    const sent = file && (await representationOf(req, file));
    if (!sent) return files(req, res, next);
    if (sent.vary) res.vary('Accept-Encoding');
    if (!sent.encoding) return files(req, res, next);
    chosen.set(res, { encoding: sent.encoding, type: path.extname(file) });
    // the variant's URL: serve-static resolves it under root again (refusing what is outside) and sends it
    const url = req.url;
    const query = url.indexOf('?');
    req.url = `${query === -1 ? url : url.slice(0, query)}${VARIANTS[sent.encoding]}`;
    files(req, res, (err?: unknown) => {
      req.url = url;
      chosen.delete(res);
      next(err);
    });
  };

  const sendPage = async (req: Request, res: Response, next: NextFunction, file: string): Promise<void> => {
    const { file: sent, encoding, vary } = await representationOf(req, file);
    res.setHeader('Cache-Control', 'no-cache');
    if (vary) res.vary('Accept-Encoding');
    const headers = encoding ? { 'Content-Encoding': encoding, 'Content-Type': 'text/html; charset=utf-8' } : {};
    res.sendFile(sent, { cacheControl: false, headers }, (err?: NodeJS.ErrnoException) => {
      if (!err || res.headersSent) return;
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') res.status(200).type('html').send(NOT_BUILT_PAGE);
      else next(err);
    });
  };

  const serve = (req: Request, res: Response, next: NextFunction) => {
    serveFile(req, res, (err?: unknown) => {
      if (err) return next(err);
      // A missing hashed asset is a 404, not HTML the browser would try to run as a script.
      if (normalisePath(req.path).startsWith('/assets/')) return next();
      const productId = productPages && productIdOf(req.path);
      const rendered = productId ? productPages.render(productId, `${req.protocol}://${req.get('host')}`) : undefined;
      Promise.resolve(rendered)
        .then(async (html) => {
          if (html === undefined) return sendPage(req, res, next, (await prerenderedFile(root, req)) ?? indexFile);
          res.setHeader('Cache-Control', 'no-cache');
          res.type('html').send(html);
        })
        .catch(next);
    }).catch(next);
  };

  return (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isBackendPath(req.path)) return next();
    compress(req, res, () => serve(req, res, next));
  };
}
