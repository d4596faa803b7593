import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import type { ProductJson } from '@shop/contracts';
import type { Logger } from './logger';

/**
 * What the web build's server bundle exports to the gateway (web/src/prerender.tsx, bundled by web/prerender.mjs
 * into dist/.server/prerender.cjs).
 */
interface ServerEntry {
  renderProductPage(
    product: ProductJson,
    origin: string,
  ): Promise<{ html: string; title: string; description: string }>;
}

/** A rendered page and the ETag of the product it was rendered from. */
interface KeptPage {
  etag: string;
  html: string;
}

/** A product read through the public API: its status, ETag and body. */
export interface ProductRead {
  status: number;
  etag?: string;
  body: Buffer;
}

/** One web build's server bundle and product page document (<!--app-head--> and <!--app-html--> to fill in). */
interface ServerBuild {
  id: number;
  entry: ServerEntry;
  template: string;
}

export interface ProductPagesOptions {
  webDist: string;
  /**
   * Reads `GET /api/products/<id>` as any client of the API would (app.ts: through the gateway's HTTP cache); without
   * it, the catalog is asked directly at `catalogUrl`.
   */
  readProduct?: (path: string) => Promise<ProductRead>;
  /** The catalog service's base URL (the proxy's upstream). */
  catalogUrl: string;
  timeoutMs: number;
  logger: Logger;
  /** Most pages kept (least recently used go first). */
  maxEntries?: number;
}

export type ProductPages = ReturnType<typeof createProductPages>;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

/**
 * JSON to sit in an HTML data block: "<" escaped, so that no value can close the element (`</script>`) or open a
 * comment; U+2028 and U+2029 escaped, which a reader taking it for JavaScript would read as line ends.
 */
export function jsonForHtml(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** web/src/app/pageData.ts reads the page data from this element. */
const PAGE_DATA_ID = 'page-data';

/**
 * Product pages rendered in full at request time from the web build's server bundle, so that a phone opening a
 * shared link paints the product and its main picture from the HTML instead of after the app, then an API call, then
 * the picture; the product goes along as page data, from which the app hydrates that HTML without asking again.
 * The product is read through the public API like any client's read (through the HTTP cache); pages are kept per
 * web build, product and origin with the product's ETag, and rendered again only when it changed.
 */
export function createProductPages(options: ProductPagesOptions) {
  const { webDist, catalogUrl, timeoutMs, logger, maxEntries = 500 } = options;
  const readProduct =
    options.readProduct ??
    (async (productPath: string): Promise<ProductRead> => {
      const res = await fetch(`${catalogUrl.replace(/\/+$/, '')}${productPath}`, {
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
  const templateFile = path.join(serverDir, 'product.html');
  /** Rendered pages by product and origin (of the current build: a new build drops them all). */
  const kept = new Map<string, KeptPage>();
  const inflight = new Map<string, Promise<string | undefined>>();
  let buildId: number | undefined;
  let build: Promise<ServerBuild> | undefined;

  async function loadBuild(id: number): Promise<ServerBuild> {
    for (const file of Object.keys(require.cache))
      if (file.startsWith(serverDir + path.sep)) delete require.cache[file];
    // A path known only at run time: the web build's CommonJS bundle, with its own imports of react & co.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const entry = require(entryFile) as ServerEntry;
    return { id, entry, template: await readFile(templateFile, 'utf8') };
  }

  /**
   * The server bundle of the build in webDist (loaded once, however many requests ask at once; again when a
   * rebuild replaced it); undefined without one.
   */
  async function currentBuild(): Promise<ServerBuild | undefined> {
    let id: number;
    try {
      id = (await stat(entryFile)).mtimeMs;
    } catch {
      return undefined; // a build without a server bundle, or none: the prerendered frame serves
    }
    if (id !== buildId) {
      buildId = id;
      build = loadBuild(id);
      kept.clear();
    }
    return build;
  }

  /**
   * Product `id` as the public API answers it, with its ETag; undefined when there is no such product (or the answer
   * is anything else than that product).
   */
  async function fetchProduct(id: string): Promise<{ product: ProductJson; etag: string | undefined } | undefined> {
    const read = await readProduct(`/api/products/${encodeURIComponent(id)}`);
    if (read.status >= 500) throw new Error(`the catalog answered ${read.status}`);
    if (read.status !== 200) return undefined; // 400 (a malformed id) or 404: the app shows its not-found state
    const product = JSON.parse(read.body.toString('utf8')) as Partial<ProductJson> | null;
    if (product?._id !== id || !Array.isArray(product.images)) return undefined;
    return { product: product as ProductJson, etag: read.etag };
  }

  async function renderPage(server: ServerBuild, product: ProductJson, origin: string): Promise<string> {
    const page = await server.entry.renderProductPage(product, origin);
    const head = [
      `<title>${escapeHtml(page.title)}</title>`,
      `<meta name="description" content="${escapeHtml(page.description)}" />`,
      `<script type="application/json" id="${PAGE_DATA_ID}">${jsonForHtml({ product })}</script>`,
    ].join('\n    ');
    // replacer functions: a "$&" in a product's text is not a replacement pattern
    return server.template.replace('<!--app-head-->', () => head).replace('<!--app-html-->', () => page.html);
  }

  /** Keeps a page, most recently used last, dropping the least recently used past maxEntries. */
  function keep(key: string, page: KeptPage): void {
    kept.delete(key);
    kept.set(key, page);
    if (kept.size > maxEntries) kept.delete(kept.keys().next().value as string);
  }

  /** The page, rendered again only when its product's ETag changed (a render costs ~17 ms; a read from the cache µs). */
  async function pageOf(server: ServerBuild, key: string, id: string, origin: string): Promise<string | undefined> {
    const fetched = await fetchProduct(id);
    if (fetched === undefined) {
      kept.delete(key);
      return undefined;
    }
    const before = kept.get(key);
    if (before && fetched.etag === before.etag) {
      keep(key, before);
      return before.html;
    }
    const html = await renderPage(server, fetched.product, origin);
    if (server.id === buildId && fetched.etag) keep(key, { etag: fetched.etag, html });
    return html;
  }

  return {
    /**
     * The whole HTML of product `id`'s page, rendered with its product for a browser at `origin`; undefined when it
     * cannot be rendered here (an unknown product, no server bundle in the build, the catalog unreachable): the
     * prerendered frame is served then, and the app asks for the product itself (and shows "not found" for one).
     */
    async render(id: string, origin: string): Promise<string | undefined> {
      let server: ServerBuild | undefined;
      try {
        server = await currentBuild();
      } catch (err) {
        logger.warn({ err }, "the web build's server bundle does not load: serving the prerendered frames");
        return undefined;
      }
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
