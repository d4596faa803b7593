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
  /** The catalogue's version (the catalogue cache follows it); while unknown, pages are rendered but not kept. */
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
 * Pages are kept per web build, catalogue version, origin and product: a catalogue change (an admin's edit, a
 * stock change) moves the version, so the next load renders afresh.
 */
export function createProductPages(options: ProductPagesOptions): ProductPages {
  const { webDist, catalogUrl, catalogVersion, timeoutMs, logger, maxEntries = 500 } = options;
  const serverDir = path.join(webDist, '.server');
  const entryFile = path.join(serverDir, 'prerender.cjs');
  const templateFile = path.join(serverDir, 'product.html');
  const kept = new Map<string, string>();
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

  /** Product `id` from the catalog; undefined when it has none (or answers anything else than that product). */
  async function fetchProduct(id: string): Promise<ProductJson | undefined> {
    const res = await fetch(`${catalogUrl.replace(/\/+$/, '')}/api/products/${encodeURIComponent(id)}`, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json' },
    });
    if (!res.ok) {
      await res.body?.cancel();
      if (res.status >= 500) throw new Error(`the catalog answered ${res.status}`);
      return undefined; // 400 (a malformed id) or 404: the app shows its not-found state
    }
    const product = (await res.json()) as Partial<ProductJson> | null;
    return product?._id === id && Array.isArray(product.images) ? (product as ProductJson) : undefined;
  }

  async function renderPage(server: ServerBuild, id: string, origin: string): Promise<string | undefined> {
    const product = await fetchProduct(id);
    if (!product) return undefined;
    const page = await server.entry.renderProductPage(product, origin);
    const head = [
      `<title>${escapeHtml(page.title)}</title>`,
      `<meta name="description" content="${escapeHtml(page.description)}" />`,
      `<script type="application/json" id="${PAGE_DATA_ID}">${jsonForHtml({ product })}</script>`,
    ].join('\n    ');
    // replacer functions: a "$&" in a product's text is not a replacement pattern
    return server.template.replace('<!--app-head-->', () => head).replace('<!--app-html-->', () => page.html);
  }

  let keptVersion: string | undefined;

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
      const version = catalogVersion();
      if (version !== keptVersion) {
        kept.clear(); // pages of an older catalogue are never asked for again
        keptVersion = version;
      }
      const key = JSON.stringify([server.id, version, origin, id]);
      const hit = kept.get(key);
      if (hit !== undefined) {
        kept.delete(key); // most recently used last
        kept.set(key, hit);
        return hit;
      }
      const pending = inflight.get(key);
      if (pending) return pending;
      const rendering = renderPage(server, id, origin)
        .then((html) => {
          // kept only when the catalogue did not change while it rendered (nor is unknown)
          if (html !== undefined && version !== undefined && version === catalogVersion() && server.id === buildId) {
            kept.set(key, html);
            if (kept.size > maxEntries) kept.delete(kept.keys().next().value as string);
          }
          return html;
        })
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
