import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { json, startUpstream, startGateway, testConfig, type Running, type Upstream } from './helpers';

const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = 'console.log("kick-off");';

describe('serving the SPA', () => {
  let dist: string;
  let catalog: Upstream;
  let gw: Running;
  let unbuilt: Running;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'gw-web-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'assets', 'index-abc123.js'), SCRIPT);
    writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    catalog = await startUpstream('catalog');
    gw = await startGateway(testConfig({ catalog }, { WEB_DIST: dist }));
    unbuilt = await startGateway(testConfig({ catalog }, { WEB_DIST: join(dist, 'does-not-exist') }));
  });

  afterAll(async () => {
    await Promise.all([gw.close(), unbuilt.close()]);
    await catalog.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves index.html at / without letting browsers keep a stale copy', async () => {
    const res = await fetch(`${gw.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toBe(INDEX);
  });

  it.each(['/product/123', '/collections/all?gender=Men', '/admin/orders', '/checkout'])(
    'serves index.html for the deep link %s',
    async (path) => {
      const res = await fetch(`${gw.url}${path}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(INDEX);
    },
  );

  it('answers HEAD for a deep link', async () => {
    const res = await fetch(`${gw.url}/product/123`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
  });

  it('serves hashed assets with a year-long immutable cache', async () => {
    const res = await fetch(`${gw.url}/assets/index-abc123.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await res.text()).toBe(SCRIPT);
  });

  it('serves other static files, revalidated', async () => {
    const res = await fetch(`${gw.url}/favicon.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/image\/svg\+xml/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers 404 for a missing hashed asset instead of HTML', async () => {
    const res = await fetch(`${gw.url}/assets/index-old999.js`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('<div id="root">');
  });

  it('never answers /api or /uploads with the SPA', async () => {
    const api = await fetch(`${gw.url}/api/unknown-thing`);
    expect(api.status).toBe(404);
    expect(await json(api)).toEqual({ message: 'Not found', statusCode: 404 });
    const upload = await fetch(`${gw.url}/uploads/jersey.svg`);
    expect((await json(upload)).service).toBe('catalog');
  });

  it('answers a JSON 404 for a non-GET outside /api', async () => {
    const res = await fetch(`${gw.url}/product/123`, { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await json(res)).toEqual({ message: 'Not found', statusCode: 404 });
  });

  it('shows a placeholder page when the web app is not built', async () => {
    for (const path of ['/', '/product/123']) {
      const res = await fetch(`${unbuilt.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(await res.text()).toContain('The web app is not built yet');
    }
    // and the API still works
    expect((await fetch(`${unbuilt.url}/api/products`)).status).toBe(200);
  });
});
