import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import type { Logger } from 'pino';
import type { ProductJson } from '@shop/contracts';

export interface ProductRead {
  status: number;
  etag?: string;
  body: Buffer;
}

export interface ProductPagesOptions {
  webDist: string;
  /**
   * Reads `GET /api/products/<id>` as any client of the API would (app.ts: through the gateway's HTTP cache); without
   * it, the catalog is asked directly at `catalogUrl`.
   */
  readProduct?: (path: string) => Promise<ProductRead>;
  catalogUrl: string;
  timeoutMs: number;
  logger: Logger;
}

export type ProductPages = ReturnType<typeof createProductPages>;

/**
 * One web build's server bundle (web/src/prerender.tsx, bundled by web/prerender.mjs into dist/.server/prerender.cjs)
 * and its product page document, with <!--app-head--> and <!--app-html--> to fill in.
 */
interface ServerBuild {
  id: number;
  renderProductPage(
    product: ProductJson,
    origin: string,
  ): Promise<{ html: string; title: string; description: string }>;
  template: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

/**
 * JSON to sit in an HTML data block: "<" escaped, so that no value can close the element (`</script>`) or open a
 * comment; U+2028 and U+2029 escaped, which a reader taking it for JavaScript would read as line ends.
 */
export function jsonForHtml(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Product pages rendered in full at request time from the web build's server bundle, so that a phone opening a
 * shared link paints the product and its main picture from the HTML instead of after the app, then an API call, then
 * the picture; the product goes along as page data (the `page-data` element web/src/app/pageData.ts reads), from
 * which the app hydrates that HTML without asking again. The product is read through the public API like any
 * client's read; pages are kept (500, least recently used go first) per web build, product and origin with the
 * product's ETag, and rendered again only when it changed (a render costs ~17 ms; a read from the cache µs).
 */
export function createProductPages(options: ProductPagesOptions) {
  const { webDist, catalogUrl, timeoutMs, logger } = options;
  const readProduct =
    options.readProduct ??
    (async (productPath: string): Promise<ProductRead> => {
      const res = await fetch(`${catalogUrl}${productPath}`, {
        signal: AbortSignal.timeout(timeoutMs),
        headers: { accept: 'application/json' },
      });
      return {
        status: res.status,
        etag: res.headers.get('etag') ?? undefined,
        body: Buffer.from(await res.arrayBuffer()),
      };
    });
  const serverDir = path.join(webDist, '.server');
  const entryFile = path.join(serverDir, 'prerender.cjs');
  /** Rendered pages by product and origin, with the ETag of the product they show (of the current build). */
  const kept = new Map<string, { etag: string; html: string }>();
  /** Keeps a page, most recently used last, dropping the least recently used past 500. */
  const keep = (key: string, page: { etag: string; html: string }): void => {
    kept.delete(key);
    kept.set(key, page);
    if (kept.size > 500) kept.delete(kept.keys().next().value!);
  };
  const inflight = new Map<string, Promise<string | undefined>>();
  let build: Promise<ServerBuild> | undefined;
  let buildId: number | undefined;

  /**
   * The server bundle of the build in webDist (loaded once, however many requests ask at once; again when a rebuild
   * replaced it, dropping the pages rendered by the previous one); undefined without one.
   */
  async function currentBuild(): Promise<ServerBuild | undefined> {
    const id = await stat(entryFile).then(
      (stats) => stats.mtimeMs,
      () => undefined, // a build without a server bundle, or none: the prerendered frame serves
    );
    if (id === undefined) return undefined;
    if (id === buildId) return build;
    buildId = id;
    kept.clear();
    for (const file of Object.keys(require.cache))
      if (file.startsWith(serverDir + path.sep)) delete require.cache[file];
    build = readFile(path.join(serverDir, 'product.html'), 'utf8').then((template) => ({
      id,
      // A path known only at run time: the web build's CommonJS bundle, with its own imports of react & co.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      renderProductPage: (require(entryFile) as Pick<ServerBuild, 'renderProductPage'>).renderProductPage,
      template,
    }));
    return build;
  }

  /** The page, rendered again only when its product's ETag changed; undefined for no such product. */
  async function pageOf(server: ServerBuild, key: string, id: string, origin: string): Promise<string | undefined> {
    const read = await readProduct(`/api/products/${encodeURIComponent(id)}`);
    if (read.status >= 500) throw new Error(`the catalog answered ${read.status}`);
    // 400 (a malformed id), 404, or anything else than that product: the app shows its not-found state
    const product = read.status === 200 ? (JSON.parse(read.body.toString('utf8')) as Partial<ProductJson>) : null;
    if (product?._id !== id || !Array.isArray(product.images)) {
      kept.delete(key);
      return undefined;
    }
    const before = kept.get(key);
    if (before && read.etag === before.etag) {
      keep(key, before);
      return before.html;
    }

    const page = await server.renderProductPage(product as ProductJson, origin);
    const head = [
      `<title>${escapeHtml(page.title)}</title>`,
      `<meta name="description" content="${escapeHtml(page.description)}" />`,
      `<script type="application/json" id="page-data">${jsonForHtml({ product })}</script>`,
    ].join('\n    ');
    // replacer functions: a "$&" in a product's text is not a replacement pattern
    const html = server.template.replace('<!--app-head-->', () => head).replace('<!--app-html-->', () => page.html);
    if (server.id === buildId && read.etag) keep(key, { etag: read.etag, html });
    return html;
  }

  return {
    /**
     * The whole HTML of product `id`'s page, rendered with its product for a browser at `origin`; undefined when it
     * cannot be rendered here (an unknown product, no server bundle in the build, the catalog unreachable): the
     * prerendered frame is served then, and the app asks for the product itself (and shows "not found" for one).
     */
    async render(id: string, origin: string): Promise<string | undefined> {
      const server = await currentBuild().catch((err: unknown) => {
        logger.warn({ err }, "the web build's server bundle does not load: serving the prerendered frames");
      });
      if (!server) return undefined;
      const key = JSON.stringify([id, origin]);
      const pending = inflight.get(key);
      if (pending) return pending;
      const rendering = pageOf(server, key, id, origin)
        .catch((err: unknown) => {
          logger.warn({ err, productId: id }, 'product page not rendered: serving the prerendered frame');
          return undefined;
        })
        .finally(() => inflight.delete(key));
      inflight.set(key, rendering);
      return rendering;
    },
  };
}
