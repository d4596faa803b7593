import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createLogger } from '@shop/nest-common/logging';
import { createProductPages, jsonForHtml } from '../src/product-page';
import { startGateway, startUpstream, testConfig, type Running, type Upstream } from './helpers';

// A product page opened from a link is rendered whole by the gateway with the web build's server bundle
// (dist/.server/prerender.cjs, from web/src/prerender.tsx) into dist/.server/product.html, the product going along as
// page data the app hydrates from. Here a stand-in bundle renders a little markup from the product it is given.
const INDEX = '<!doctype html><html><head><title>Shop</title></head><body><div id="root"></div></body></html>';
const FRAME = '<!doctype html><html><body><div id="root"><p>Loading...</p></div></body></html>';
const TEMPLATE =
  '<!doctype html><html><head><!--app-head--><script type="module" src="/assets/index.js"></script></head>' +
  '<body><div id="root"><!--app-html--></div></body></html>';
const SERVER_BUNDLE = `
const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
let renders = 0;
exports.renderProductPage = async (product, origin) => ({
  html: '<main data-render="' + ++renders + '"><h1>' + escape(product.name) + '</h1><img src="' + product.images[0].url + '" data-origin="' + origin + '"></main>',
  title: product.name + ' | Test Store',
  description: product.description,
});
`;

const ID = '65a000000000000000000001';
const aProduct = (fields: Record<string, unknown> = {}) => ({
  _id: ID,
  name: 'Chiefs Home Jersey',
  description: 'The home jersey.',
  price: 79.99,
  images: [{ url: '/uploads/chiefs.jpg', altText: 'Chiefs jersey' }],
  ...fields,
});

/** A web build with a server bundle, in a folder of its own. */
function writeBuild(files: Record<string, string> = {}): string {
  const dist = mkdtempSync(join(tmpdir(), 'gw-product-page-'));
  const all = {
    'index.html': INDEX,
    'prerendered/product.html': FRAME,
    'prerendered/routes.json': JSON.stringify([{ route: '/product/:id', file: 'prerendered/product.html' }]),
    '.server/prerender.cjs': SERVER_BUNDLE,
    '.server/product.html': TEMPLATE,
    ...files,
  };
  for (const [file, content] of Object.entries(all)) {
    mkdirSync(dirname(join(dist, file)), { recursive: true });
    writeFileSync(join(dist, file), content);
  }
  return dist;
}

/**
 * A catalog answering GET /api/products/:id from `products` (404 for the rest, `status` when set), with an ETag of
 * the product's JSON and a 304 for a request that names it, as the real one does.
 */
async function startCatalog(products: Map<string, object>, status?: { code?: number }): Promise<Upstream> {
  return startUpstream('catalog', (req, res: ServerResponse) => {
    const id = decodeURIComponent(/^\/api\/products\/([^/?]+)/.exec(req.url ?? '')?.[1] ?? '');
    const product = products.get(id);
    res.setHeader('Content-Type', 'application/json');
    res.statusCode = status?.code ?? (product ? 200 : 404);
    if (res.statusCode !== 200) return res.end(JSON.stringify({ message: 'Product not found' }));
    const body = JSON.stringify(product);
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    res.setHeader('ETag', etag);
    if (req.headers['if-none-match'] === etag) {
      res.statusCode = 304;
      return res.end();
    }
    res.end(body);
  });
}

/** The page data block's text, and what it parses to. */
function pageData(html: string): { text: string; data: unknown } {
  const text = /<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (text === undefined) throw new Error(`no page data in ${html}`);
  return { text, data: JSON.parse(text) as unknown };
}

describe('product pages rendered by the gateway', () => {
  const products = new Map<string, object>();
  const failure: { code?: number } = {};
  let catalog: Upstream;
  let gw: Running;
  let dist: string;

  beforeAll(async () => {
    dist = writeBuild();
    catalog = await startCatalog(products, failure);
    gw = await startGateway(testConfig({ catalog }, { WEB_DIST: dist }));
  });
  afterAll(async () => {
    await gw.close();
    await catalog.close();
    rmSync(dist, { recursive: true, force: true });
  });
  // a product of its own per test: the gateway keeps what it rendered for the product's ETag
  let id = ID;
  let tests = 0;
  beforeEach(() => {
    products.clear();
    delete failure.code;
    id = `65a0000000000000000001${String(++tests).padStart(2, '0')}`;
  });

  const get = async (path: string) => {
    const res = await fetch(`${gw.url}${path}`);
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      cache: res.headers.get('cache-control'),
      body: await res.text(),
    };
  };

  it('serves the page with its product rendered, titled, and sent along as page data', async () => {
    products.set(id, aProduct({ _id: id }));
    const res = await get(`/product/${id}`);
    expect(res).toMatchObject({ status: 200, type: expect.stringMatching(/text\/html/), cache: 'no-cache' });
    expect(res.body).toMatch(/<main data-render="\d+"><h1>Chiefs Home Jersey<\/h1><img src="\/uploads\/chiefs.jpg"/);
    expect(res.body).toContain(`data-origin="${gw.url}"`); // absolute URLs on the origin the browser asked
    expect(res.body).toContain('<title>Chiefs Home Jersey | Test Store</title>');
    expect(res.body).toContain('<meta name="description" content="The home jersey." />');
    expect(res.body).toContain('<script type="module" src="/assets/index.js"></script>');
    expect(pageData(res.body).data).toEqual({ product: aProduct({ _id: id }) });
  });

  it('renders it for a link with a query too (a shared link with tracking)', async () => {
    products.set(id, aProduct({ _id: id }));
    expect((await get(`/product/${id}?utm_source=newsletter`)).body).toContain('<h1>Chiefs Home Jersey</h1>');
  });

  it('escapes what a product says, in the title, the description and the page data', async () => {
    const hostile = aProduct({
      _id: id,
      name: "Jersey </script><script>alert(1)</script> $& $' <!--",
      description: 'Line\u2028separator\u2029and "quotes" & <b>tags</b>',
    });
    products.set(id, hostile);
    const { body } = await get(`/product/${id}`);
    const { text, data } = pageData(body);
    expect(data).toEqual({ product: hostile }); // the same product, whatever it holds
    expect(text).not.toMatch(/<|\u2028|\u2029/);
    expect(body).not.toContain('<script>alert(1)');
    expect(body).toContain(
      '<title>Jersey &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; $&amp; $&#39; &lt;!-- | Test Store</title>',
    );
    expect(body).toContain(
      '<meta name="description" content="Line\u2028separator\u2029and &quot;quotes&quot; &amp; &lt;b&gt;tags&lt;/b&gt;" />',
    );
    // "$&" and "$'" stay as written (not replacement patterns pasting the template into the page)
    expect(body.match(/<!doctype html>/g)).toHaveLength(1);
  });

  it.each([
    ['an unknown product (the app shows its not-found state)', undefined],
    ['a malformed id', 400],
    ['a catalog that fails', 503],
  ])('serves the prerendered frame for %s', async (_case, code) => {
    failure.code = code;
    expect(await get(`/product/${id}`)).toMatchObject({ status: 200, body: FRAME });
  });

  it('never serves the server bundle itself (a dot folder)', async () => {
    expect((await get('/.server/prerender.cjs')).body).not.toContain('renderProductPage');
    expect((await get('/.server/product.html')).body).not.toContain('<!--app-head-->');
  });

  it('serves the frame when the catalog answers for another product than the one asked', async () => {
    products.set(id, aProduct({ _id: ID }));
    expect((await get(`/product/${id}`)).body).toBe(FRAME);
  });
});

describe('the kept product pages', () => {
  const products = new Map<string, object>();
  let catalog: Upstream;
  let dist: string;
  const logger = createLogger('gateway', 'silent');
  let renders = 0;
  const pagesOf = (webDist: string) =>
    createProductPages({ webDist, catalogUrl: catalog.url, timeoutMs: 2000, logger });
  const origin = 'http://localhost:8080';

  beforeAll(async () => {
    dist = writeBuild();
    catalog = await startCatalog(products);
  });
  afterAll(async () => {
    await catalog.close();
    rmSync(dist, { recursive: true, force: true });
  });
  beforeEach(() => {
    products.clear();
    products.set(ID, aProduct());
    catalog.requests.length = 0;
    renders = 0;
  });

  it('renders a product once per ETag: the same page while it is unchanged, a new one after an edit', async () => {
    const pages = pagesOf(dist);
    const first = await pages.render(ID, origin);
    expect(first).toContain('<h1>Chiefs Home Jersey</h1>');
    expect(await pages.render(ID, origin)).toBe(first); // each render is numbered: not rendered again
    expect(catalog.requests).toHaveLength(2); // the product is read at each load (from the HTTP cache, in the gateway)

    products.set(ID, aProduct({ name: 'Chiefs Home Jersey 2026' })); // an admin's edit changes its ETag
    expect(await pages.render(ID, origin)).toContain('<h1>Chiefs Home Jersey 2026</h1>');
  });

  it('reads the product through the readProduct it is given (the gateway: its HTTP cache)', async () => {
    const body = Buffer.from(JSON.stringify(aProduct({ name: 'Read Through' })));
    const pages = createProductPages({
      webDist: dist,
      catalogUrl: 'http://127.0.0.1:9', // never asked
      readProduct: async (path) => {
        renders += 1;
        expect(path).toBe(`/api/products/${ID}`);
        return { status: 200, etag: '"v1"', body };
      },
      timeoutMs: 2000,
      logger,
    });
    expect(await pages.render(ID, origin)).toContain('<h1>Read Through</h1>');
    expect(renders).toBe(1);
    expect(catalog.requests).toHaveLength(0);
  });

  it('renders concurrent requests for one page once', async () => {
    const pages = pagesOf(dist);
    const all = await Promise.all([1, 2, 3].map(() => pages.render(ID, origin)));
    expect(new Set(all).size).toBe(1);
    expect(catalog.requests).toHaveLength(1);
  });

  it('serves the frame for a product the catalog no longer has', async () => {
    const pages = pagesOf(dist);
    expect(await pages.render(ID, origin)).toContain('<h1>Chiefs Home Jersey</h1>');
    products.delete(ID);
    expect(await pages.render(ID, origin)).toBeUndefined();
  });

  it('keeps a page per origin (the schema.org URLs name it)', async () => {
    const pages = pagesOf(dist);
    expect(await pages.render(ID, 'https://shop.example')).toContain('data-origin="https://shop.example"');
    expect(await pages.render(ID, origin)).toContain(`data-origin="${origin}"`);
  });

  // (the bundle itself is required again too, out of Node's module cache, which jest's registry does not expose)
  it("reads a rebuilt build's template, dropping what the previous build rendered", async () => {
    const rebuilt = writeBuild();
    try {
      const pages = pagesOf(rebuilt);
      expect(await pages.render(ID, origin)).toContain('src="/assets/index.js"');
      writeFileSync(join(rebuilt, '.server/product.html'), TEMPLATE.replace('index.js', 'index-new.js'));
      const later = new Date(Date.now() + 5000);
      utimesSync(join(rebuilt, '.server/prerender.cjs'), later, later);
      expect(await pages.render(ID, origin)).toContain('src="/assets/index-new.js"');
    } finally {
      rmSync(rebuilt, { recursive: true, force: true });
    }
  });

  it('renders nothing for a build without a server bundle (the frame serves)', async () => {
    const older = writeBuild();
    rmSync(join(older, '.server'), { recursive: true });
    try {
      expect(await pagesOf(older).render(ID, origin)).toBeUndefined();
      expect(catalog.requests).toHaveLength(0);
    } finally {
      rmSync(older, { recursive: true, force: true });
    }
  });
});

describe('jsonForHtml', () => {
  it('writes JSON that no value can break out of, and that parses back to the value', () => {
    const value = { a: '</script><!-- \u2028\u2029 <b>' };
    const text = jsonForHtml(value);
    expect(text).not.toMatch(/<|\u2028|\u2029/);
    expect(JSON.parse(text)).toEqual(value);
  });
});
