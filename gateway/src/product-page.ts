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

/**
 * A rendered page: the product's ETag it was rendered from, and the catalogue version at which that was last known
 * to be current (undefined: unknown, so ask the catalog at the next load).
 */
interface KeptPage {
  version: string | undefined;
  etag: string;
  html: string;
}

/** One web build's server bundle and product page document (<!--app-head--> and <!--app-html--> to fill in). */
interface ServerBuild {
  id: number;
  entry: ServerEntry;
  template: string;
}

export interface ProductPagesOptions {
  webDist: string;
  /** The catalog service's base URL (the proxy's upstream). */
  catalogUrl: string;
  /**
   * The catalogue's version (the catalogue cache follows it): a page kept at the current version is served without
   * asking the catalog; while unknown, every load asks (a 304 still keeps the page).
   */
  catalogVersion: () => string | undefined;
  timeoutMs: number;
  logger: Logger;
  /** Most pages kept (least recently used go first). */
  maxEntries?: number;
}

export interface ProductPages {
  /**
   * The whole HTML of product `id`'s page, rendered with its product for a browser at `origin`; undefined when it
   * cannot be rendered here (an unknown product, no server bundle in the build, the catalog unreachable): the
   * prerendered frame is served then, and the app asks for the product itself (and shows "not found" for one).
   */
  render(id: string, origin: string): Promise<string | undefined>;
}

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
 * Pages are kept per web build, product and origin, with the product's ETag: once the catalogue version moves (an
 * admin's edit, any stock change), the next load of a page asks the catalog whether its product changed, and only a
 * product that did is rendered again (a render costs ~17 ms; a sale of one product must not make every page pay it).
 */
export function createProductPages(options: ProductPagesOptions): ProductPages {
  const { webDist, catalogUrl, catalogVersion, timeoutMs, logger, maxEntries = 500 } = options;
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
   * Product `id` from the catalog with its ETag; `'unchanged'` when the catalog says the page rendered for
   * `etag` still shows it (304); undefined when it has no such product (or answers anything else than that product).
   */
  async function fetchProduct(
    id: string,
    etag: string | undefined,
  ): Promise<{ product: ProductJson; etag: string | undefined } | 'unchanged' | undefined> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (etag) headers['if-none-match'] = etag;
    const res = await fetch(`${catalogUrl.replace(/\/+$/, '')}/api/products/${encodeURIComponent(id)}`, {
      signal: AbortSignal.timeout(timeoutMs),
      headers,
    });
    if (res.status === 304 && etag) return 'unchanged';
    if (!res.ok) {
      await res.body?.cancel();
      if (res.status >= 500) throw new Error(`the catalog answered ${res.status}`);
      return undefined; // 400 (a malformed id) or 404: the app shows its not-found state
    }
    const product = (await res.json()) as Partial<ProductJson> | null;
    if (product?._id !== id || !Array.isArray(product.images)) return undefined;
    return { product: product as ProductJson, etag: res.headers.get('etag') ?? undefined };
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

  /**
   * The page, rendered again only when its product changed: the catalog is asked with the kept page's ETag, and
   * a 304 keeps it (a stock change elsewhere in the catalogue moves the version, not this product's ETag).
   */
  async function pageOf(server: ServerBuild, key: string, id: string, origin: string): Promise<string | undefined> {
    const version = catalogVersion();
    const before = kept.get(key);
    const fetched = await fetchProduct(id, before?.etag);
    if (fetched === undefined) {
      kept.delete(key);
      return undefined;
    }
    if (fetched === 'unchanged') {
      if (server.id === buildId) keep(key, { ...before!, version });
      return before!.html;
    }
    const html = await renderPage(server, fetched.product, origin);
    if (server.id === buildId && fetched.etag) keep(key, { version, etag: fetched.etag, html });
    return html;
  }

  return {
    async render(id, origin) {
      let server: ServerBuild | undefined;
      try {
        server = await currentBuild();
      } catch (err) {
        logger.warn({ err }, "the web build's server bundle does not load: serving the prerendered frames");
        return undefined;
      }
      if (!server) return undefined;
      const key = JSON.stringify([id, origin]);
      const page = kept.get(key);
      const version = catalogVersion();
      // Nothing in the catalogue changed since the page was checked: no need to ask.
      if (page && version !== undefined && page.version === version) {
        keep(key, page);
        return page.html;
      }
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
