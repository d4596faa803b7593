import { gunzipSync } from 'node:zlib';
import type { ServiceName } from '@shop/contracts';
import { ROUTES } from '../src/routes';
import { json, rawRequest, startAllUpstreams, startGateway, testConfig, type Running, type Upstream } from './helpers';

describe('routing through the gateway', () => {
  let upstreams: Record<ServiceName, Upstream>;
  let gw: Running;

  beforeAll(async () => {
    upstreams = await startAllUpstreams();
    gw = await startGateway(testConfig(upstreams));
  });

  afterAll(async () => {
    await gw.close();
    await Promise.all(Object.values(upstreams).map((u) => u.close()));
  });

  const cases: Array<[string, string, ServiceName]> = [
    ['POST', '/api/users/login', 'identity'],
    ['GET', '/api/users/profile?fields=name', 'identity'],
    ['GET', '/api/admin/users', 'identity'],
    ['DELETE', '/api/admin/users/64b7f0c2a1b2c3d4e5f60718', 'identity'],
    ['POST', '/api/subscribe', 'identity'],
    ['GET', '/api/products?category=Top%20Wear&size=M,L&sortBy=priceAsc', 'catalog'],
    ['GET', '/api/products/similar/64b7f0c2a1b2c3d4e5f60718', 'catalog'],
    ['PUT', '/api/admin/products/64b7f0c2a1b2c3d4e5f60718', 'catalog'],
    ['POST', '/api/products/64b7f0c2a1b2c3d4e5f60718/reviews', 'catalog'],
    ['GET', '/api/admin/reviews?productId=64b7f0c2a1b2c3d4e5f60718&page=2', 'catalog'],
    ['PUT', '/api/admin/reviews/64b7f0c2a1b2c3d4e5f60718', 'catalog'],
    ['GET', '/api/reviews/mine?productId=64b7f0c2a1b2c3d4e5f60718', 'catalog'],
    ['POST', '/api/upload', 'catalog'],
    ['GET', '/uploads/jersey-red.svg?v=2', 'catalog'],
    ['GET', '/api/cart?guestId=guest_1700000000000', 'cart'],
    ['POST', '/api/cart/merge', 'cart'],
    ['POST', '/api/checkout', 'checkout'],
    ['PUT', '/api/checkout/64b7f0c2a1b2c3d4e5f60718/pay', 'checkout'],
    ['GET', '/api/config', 'checkout'],
    ['GET', '/api/orders/my-orders', 'orders'],
    ['PUT', '/api/admin/orders/64b7f0c2a1b2c3d4e5f60718', 'orders'],
    ['GET', '/api/admin/stats', 'orders'],
    ['POST', '/api/orders/64b7f0c2a1b2c3d4e5f60718/returns', 'orders'],
    ['GET', '/api/admin/returns', 'orders'],
    ['PUT', '/api/admin/orders/64b7f0c2a1b2c3d4e5f60718/returns/64b7f0c2a1b2c3d4e5f60719', 'orders'],
  ];

  it.each(cases)('%s %s reaches %s with the full path and query', async (method, path, service) => {
    const res = await fetch(`${gw.url}${path}`, { method });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ service, method, url: path });
    const seen = upstreams[service].requests.at(-1);
    expect(seen?.url).toBe(path);
  });

  it.each(ROUTES.map((r) => [r.prefix, r.service] as const))('prefix %s belongs to %s', async (prefix, service) => {
    const res = await fetch(`${gw.url}${prefix}`);
    expect((await json(res)).service).toBe(service);
  });

  it('answers an unknown /api path with a JSON 404 and calls no service', async () => {
    const before = Object.values(upstreams).reduce((n, u) => n + u.requests.length, 0);
    for (const path of ['/api/nope', '/api', '/api/usersx/login', '/api/admin/everything']) {
      const res = await fetch(`${gw.url}${path}`, { method: 'POST' });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(await json(res)).toEqual({ message: 'Not found', statusCode: 404 });
    }
    const after = Object.values(upstreams).reduce((n, u) => n + u.requests.length, 0);
    expect(after).toBe(before);
  });

  it("passes the service's own status, headers and error body through unchanged", async () => {
    const res = await fetch(`${gw.url}/api/users/profile?status=401`, { headers: { authorization: 'Bearer abc' } });
    expect(res.status).toBe(401);
    expect(await json(res)).toEqual({ message: 'Not authorized, token failed', statusCode: 401 });
    expect(upstreams.identity.requests.at(-1)?.headers.authorization).toBe('Bearer abc');
    expect(res.headers.get('x-powered-by')).toBeNull(); // the upstream's Express banner is not leaked
  });

  it('rejects dot-segment paths instead of forwarding them', async () => {
    const res = await rawRequest(gw.url, { path: '/api/cart/../admin/users' });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body.toString())).toEqual({ message: 'Invalid request path', statusCode: 400 });
  });

  it('tells the upstream who the client was (X-Forwarded-*) and keeps the Host', async () => {
    await fetch(`${gw.url}/api/products`);
    const seen = upstreams.catalog.requests.at(-1);
    expect(seen?.headers['x-forwarded-for']).toMatch(/127\.0\.0\.1/);
    expect(seen?.headers.host).toBe(new URL(gw.url).host);
  });

  it('gzips a large proxied JSON response when the client accepts it, intact', async () => {
    const res = await rawRequest(gw.url, {
      path: '/api/products?limit=100&' + 'q=x'.repeat(2000),
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    const body = JSON.parse(gunzipSync(res.body).toString());
    expect(body.service).toBe('catalog');
    expect(body.url).toContain('q=xq=x');
  });
});
