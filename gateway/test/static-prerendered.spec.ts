import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startUpstream, startGateway, testConfig, type Running } from './helpers';

// web/prerender.mjs writes the landing pages' HTML and prerendered/routes.json; the gateway serves each for its
// route, and index.html for everything else.
const INDEX = '<!doctype html><html><body><div id="root"></div></body></html>';
const page = (name: string) => `<!doctype html><html><body><div id="root"><p>${name}</p></div></body></html>`;
const ROUTES = [
  { route: '/', file: 'prerendered/home.html' },
  { route: '/collections/all', file: 'prerendered/collection.html' },
  { route: '/product/:id', file: 'prerendered/product.html' },
];

/** A gateway serving a web build of these files (path under dist → content), and how to stop both. */
async function serveBuild(files: Record<string, string>): Promise<{ gw: Running; close: () => Promise<void> }> {
  const dist = mkdtempSync(join(tmpdir(), 'gw-web-'));
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dist, file)), { recursive: true });
    writeFileSync(join(dist, file), content);
  }
  const catalog = await startUpstream('catalog');
  const gw = await startGateway(testConfig({ catalog }, { WEB_DIST: dist }));
  const close = async () => {
    await gw.close();
    await catalog.close();
    rmSync(dist, { recursive: true, force: true });
  };
  return { gw, close };
}

describe('serving the prerendered landing pages', () => {
  let gw: Running;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ gw, close } = await serveBuild({
      'index.html': INDEX,
      'prerendered/home.html': page('home'),
      'prerendered/collection.html': page('collection'),
      'prerendered/product.html': page('product'),
      'prerendered/routes.json': JSON.stringify(ROUTES),
    }));
  });
  afterAll(() => close());

  const get = async (path: string, method = 'GET') => {
    const res = await fetch(`${gw.url}${path}`, { method });
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      cache: res.headers.get('cache-control'),
      body: await res.text(),
    };
  };

  it.each([
    ['/', 'home'],
    ['/collections/all', 'collection'],
    ['/collections/all/', 'collection'],
    ['/Collections/All', 'collection'],
    ['/product/6650a1b2c3d4e5f601234567', 'product'],
  ])('serves %s its prerendered page, revalidated like index.html', async (path, name) => {
    expect(await get(path)).toEqual({
      status: 200,
      type: expect.stringMatching(/text\/html/),
      cache: 'no-cache',
      body: page(name),
    });
  });

  it.each([
    // a query (filters, sort, a search) renders another page than the prerendered one: the app renders it itself
    '/collections/all?gender=Men',
    '/?utm_source=newsletter',
    '/product/6650a1b2c3d4e5f601234567?ref=share',
    // not the same shape as a prerendered route
    '/collections/men',
    '/product',
    '/product/1/reviews',
    '/checkout',
  ])('serves index.html for %s', async (path) => {
    expect((await get(path)).body).toBe(INDEX);
  });

  it('answers HEAD for a prerendered route', async () => {
    const res = await get('/product/123', 'HEAD');
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/text\/html/);
  });
});

describe('a build without prerendered pages', () => {
  let gw: Running;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ gw, close } = await serveBuild({ 'index.html': INDEX }));
  });
  afterAll(() => close());

  it('serves index.html on the landing routes too', async () => {
    for (const path of ['/', '/collections/all', '/product/123'])
      expect(await (await fetch(`${gw.url}${path}`)).text()).toBe(INDEX);
  });
});
