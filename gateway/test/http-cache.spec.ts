import * as net from 'node:net';
import { Writable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { Redis } from 'ioredis';
import pino from 'pino';
import { cacheKeyOf } from '../src/http-cache/index';
import { acceptsGzip } from '../src/http-cache/entry';
import { createGateway } from '../src/app';
import { ConfigError, loadConfig } from '../src/config';
import {
  closedPort,
  deleteKeys,
  json,
  rawRequest,
  startGateway,
  startHungUpstream,
  startUpstream,
  testConfig,
  uniqueCatalogPrefix,
  type Running,
  type Upstream,
} from './helpers';

/**
 * The gateway's HTTP cache in front of the public catalogue, against a real Redis (own key prefix per gateway,
 * deleted afterwards) and a stand-in catalog that counts what reaches it.
 */

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(5);
  }
  return Date.now() - started;
}

/** A pino logger at info whose lines, parsed, land in `lines`. */
function capturingLogger(lines: Array<Record<string, unknown>>): pino.Logger {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return pino({ level: 'info' }, sink);
}

/** A TCP hop in front of the real Redis that a test can cut and restore (a Redis outage, for the gateway). */
async function startRedisHop(): Promise<{ url: string; cut(): Promise<void>; restore(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(6379, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    cut: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        sockets.forEach((socket) => socket.destroy());
      }),
    restore: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
  };
}

/** What the stand-in catalog currently "has in its database". */
let edition = 'A';
const PRODUCTS = Array.from({ length: 60 }, (_, i) => ({
  _id: `64b7f0c2a1b2c3d4e5f6${String(i).padStart(4, '0')}`,
  name: `Home Jersey ${i}`,
  description: 'Official replica jersey, breathable mesh, embroidered crest.',
  price: 89.99,
  category: 'Top Wear',
}));

function catalogHandler(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const status = Number(url.searchParams.get('status') ?? 200);
  // Like the catalog: its public 200s allow shared caches to keep them (Surrogate-Control), unless `?keep=` says.
  const keep = url.searchParams.get('keep');
  const sendJson = (code: number, body: unknown, headers: Record<string, string> = {}): void => {
    const shared = code === 200 && keep !== 'no' ? { 'Surrogate-Control': `max-age=${keep ?? 3600}` } : {};
    res.writeHead(code, { 'Content-Type': 'application/json; charset=utf-8', ...shared, ...headers });
    res.end(JSON.stringify(body));
  };
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendJson(status, status < 300 ? { ok: true } : { message: 'Name is required', statusCode: status });
    return;
  }
  if (status !== 200) {
    sendJson(status, { message: status === 404 ? 'Product not found' : 'Boom', statusCode: status });
    return;
  }
  const body = { edition, path: url.pathname, query: url.search, products: PRODUCTS };
  switch (url.pathname) {
    case '/api/products/best-seller':
      sendJson(200, body, { ETag: `"bs-${edition}"`, 'Cache-Control': 'public, no-cache' });
      return;
    case '/api/products/slow':
      setTimeout(() => sendJson(200, body), 200); // the body is what the database had when asked
      return;
    case '/api/products/text':
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end(`edition ${edition}`);
      return;
    case '/api/products/private':
      sendJson(200, body, { 'Cache-Control': 'private' });
      return;
    case '/api/products/huge':
      sendJson(200, { edition, filler: 'x'.repeat(1024 * 1024 + 10) });
      return;
    default:
      sendJson(200, body);
  }
}

describe('HTTP cache in the gateway', () => {
  let catalog: Upstream;
  let redis: Redis;
  const prefixes: string[] = [];
  const logLines: Array<Record<string, unknown>> = [];

  // Main gateway: version changes only by pub/sub (the poll is an hour), logs captured.
  let gw: { url: string; close(): Promise<void>; cache: NonNullable<ReturnType<typeof createGateway>['httpCache']> };
  let prefix: string;
  let polled: Running; // version picked up by the poll alone
  let pollPrefix: string;
  let small: Running; // two entries at most
  let redisDown: Running;
  let off: Running;

  const reached = (path: string, method = 'GET'): number =>
    catalog.requests.filter((r) => r.url === path && r.method === method).length;

  beforeAll(async () => {
    catalog = await startUpstream('catalog', (req, res) => catalogHandler(req, res));
    redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });

    prefix = uniqueCatalogPrefix();
    pollPrefix = uniqueCatalogPrefix();
    const smallPrefix = uniqueCatalogPrefix();
    prefixes.push(prefix, pollPrefix, smallPrefix);
    await redis.set(`${prefix}catalog:version`, '41'); // as if the catalog had been running for a while

    const main = createGateway(
      testConfig({ catalog }, { CATALOG_CACHE_PREFIX: prefix, CATALOG_VERSION_POLL_MS: '3600000' }),
      { logger: capturingLogger(logLines) },
    );
    const { url } = await main.start();
    gw = { url, close: () => main.close(1000), cache: main.httpCache! };

    polled = await startGateway(
      testConfig({ catalog }, { CATALOG_CACHE_PREFIX: pollPrefix, CATALOG_VERSION_POLL_MS: '50' }),
    );
    small = await startGateway(
      testConfig(
        { catalog },
        {
          CATALOG_CACHE_PREFIX: smallPrefix,
          CATALOG_CACHE_MAX_ENTRIES: '2',
          CORS_ORIGINS: 'https://shop.example.com',
        },
      ),
    );
    redisDown = await startGateway(testConfig({ catalog }, { REDIS_URL: `redis://127.0.0.1:${await closedPort()}` }));
    off = await startGateway(testConfig({ catalog }, { CATALOG_CACHE: 'off' }));
    // start() waits 2 s for the version and then serves anyway (bypassing the cache); a busy CI box can take longer.
    for (const cache of [gw.cache, polled.gateway.httpCache!, small.gateway.httpCache!])
      expect(await cache.whenArmed(10_000)).toBe(true);
  });

  afterAll(async () => {
    await Promise.all([gw.close(), polled.close(), small.close(), redisDown.close(), off.close()]);
    for (const p of prefixes) await deleteKeys(p);
    await redis.quit();
    await catalog.close();
  });

  beforeEach(() => {
    edition = 'A';
  });

  it('answers a repeated read from memory: the catalog is asked once, the shopper gets the same list', async () => {
    const first = await fetch(`${gw.url}/api/products?collection=all&t=hit`);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache')).toBe('MISS');
    const firstBody = await json(first);
    expect(firstBody).toMatchObject({ edition: 'A', query: '?collection=all&t=hit' });

    const second = await fetch(`${gw.url}/api/products?collection=all&t=hit`);
    expect(second.status).toBe(200);
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect(second.headers.get('content-type')).toMatch(/application\/json/);
    expect(second.headers.get('etag')).toMatch(/^(W\/)?"[\w-]+"$/); // weak on the gzip variant (fetch asks for it)
    expect(await json(second)).toEqual(firstBody);
    expect(reached('/api/products?collection=all&t=hit')).toBe(1);
  });

  it('treats a trailing slash and the case of the path as the same read, but not another query', async () => {
    await fetch(`${gw.url}/api/products/new-arrivals?t=norm`).then((r) => r.arrayBuffer());
    const same = await fetch(`${gw.url}/API/Products/New-Arrivals/?t=norm`);
    expect(same.headers.get('x-cache')).toBe('HIT');
    expect((await json(same)).path).toBe('/api/products/new-arrivals');

    const other = await fetch(`${gw.url}/api/products/new-arrivals?t=norm&page=2`);
    expect(other.headers.get('x-cache')).toBe('MISS');
    expect((await json(other)).query).toBe('?t=norm&page=2');
    // The query is kept as sent: the same parameters in another order are another entry.
    const reordered = await fetch(`${gw.url}/api/products/new-arrivals?page=2&t=norm`);
    expect(reordered.headers.get('x-cache')).toBe('MISS');
    expect((await json(reordered)).query).toBe('?page=2&t=norm');
  });

  it('gives hits their own request id, the security headers and an access-log line', async () => {
    await fetch(`${gw.url}/api/products?t=headers`).then((r) => r.arrayBuffer());
    const a = await fetch(`${gw.url}/api/products?t=headers`);
    const b = await fetch(`${gw.url}/api/products?t=headers`, { headers: { 'x-request-id': 'support-7' } });
    expect([a.headers.get('x-cache'), b.headers.get('x-cache')]).toEqual(['HIT', 'HIT']);
    expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers.get('x-request-id')).toBe('support-7');
    expect(a.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(a.headers.get('x-content-type-options')).toBe('nosniff');
    await Promise.all([a.arrayBuffer(), b.arrayBuffer()]);
    await until(() => logLines.some((l) => l.requestId === 'support-7'), 1000);
    expect(logLines.find((l) => l.requestId === 'support-7')).toMatchObject({
      msg: 'request',
      method: 'GET',
      path: '/api/products',
      status: 200,
      cache: 'HIT',
      upstream: null,
    });
    expect(reached('/api/products?t=headers')).toBe(1);
  });

  it('sends exactly the same security headers on a hit as on a proxied answer', async () => {
    const miss = await fetch(`${gw.url}/api/products?t=same-headers`);
    const hit = await fetch(`${gw.url}/api/products?t=same-headers`);
    expect([miss.headers.get('x-cache'), hit.headers.get('x-cache')]).toEqual(['MISS', 'HIT']);
    const security = (res: Response): Record<string, string | null> =>
      Object.fromEntries(
        [
          'content-security-policy',
          'cross-origin-opener-policy',
          'cross-origin-resource-policy',
          'origin-agent-cluster',
          'referrer-policy',
          'strict-transport-security',
          'x-content-type-options',
          'x-dns-prefetch-control',
          'x-download-options',
          'x-frame-options',
          'x-permitted-cross-domain-policies',
          'x-xss-protection',
          'x-powered-by',
        ].map((name) => [name, res.headers.get(name)]),
      );
    const proxied = await fetch(`${gw.url}/api/cart`); // a route the cache never answers
    expect(security(hit)).toEqual(security(proxied));
    expect(security(hit)).toEqual(security(miss));
    expect(security(hit)['x-frame-options']).toBe('SAMEORIGIN');
    await Promise.all([miss.arrayBuffer(), hit.arrayBuffer(), proxied.arrayBuffer()]);
  });

  it('answers a cross-origin read from an allowed origin with its CORS headers, from the cache', async () => {
    const path = '/api/products?t=cors';
    await fetch(`${small.url}${path}`).then((r) => r.arrayBuffer());
    const allowed = await fetch(`${small.url}${path}`, { headers: { origin: 'https://shop.example.com' } });
    expect(allowed.headers.get('x-cache')).toBe('HIT');
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
    expect(allowed.headers.get('vary')).toMatch(/origin/i);
    expect(allowed.headers.get('vary')).toMatch(/accept-encoding/i);
    const other = await fetch(`${small.url}${path}`, { headers: { origin: 'https://evil.example.net' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    await Promise.all([allowed.arrayBuffer(), other.arrayBuffer()]);
    expect(reached(path)).toBe(1);
  });

  it('answers If-None-Match with 304 and HEAD with the headers only, without asking the catalog', async () => {
    const path = '/api/products?t=etag';
    const head = await rawRequest(gw.url, { method: 'HEAD', path });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    const full = await rawRequest(gw.url, { path });
    expect(full.headers['x-cache']).toBe('HIT'); // the HEAD filled the entry
    const body = full.body;
    expect(Number(head.headers['content-length'])).toBe(body.length);
    const etag = full.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(head.headers.etag).toBe(etag);

    const revalidated = await rawRequest(gw.url, { path, headers: { 'if-none-match': etag } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(revalidated.headers.etag).toBe(etag);
    // as fetch() sends a hand-set If-None-Match: with Cache-Control: no-cache (the entry is the catalog's current one)
    const noCache = await rawRequest(gw.url, { path, headers: { 'if-none-match': etag, 'cache-control': 'no-cache' } });
    expect(noCache.status).toBe(304);
    const changedTag = await rawRequest(gw.url, { path, headers: { 'if-none-match': '"something-else"' } });
    expect(changedTag.status).toBe(200);
    expect(JSON.parse(changedTag.body.toString())).toEqual(JSON.parse(body.toString()));
    expect(reached(path)).toBe(1);
  });

  it("keeps the catalog's own ETag and Cache-Control", async () => {
    await fetch(`${gw.url}/api/products/best-seller`).then((r) => r.arrayBuffer());
    const hit = await rawRequest(gw.url, { path: '/api/products/best-seller' });
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.headers.etag).toBe('"bs-A"');
    expect(hit.headers['cache-control']).toBe('public, no-cache');
    const gz = await rawRequest(gw.url, {
      path: '/api/products/best-seller',
      headers: { 'accept-encoding': 'gzip', 'if-none-match': 'W/"bs-A"' },
    });
    expect(gz.status).toBe(304);
  });

  it('sends the gzip variant to clients that accept it, decoding to the same JSON', async () => {
    const path = '/api/products?t=gzip';
    const plain = await rawRequest(gw.url, { path });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);

    const zipped = await rawRequest(gw.url, { path, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(zipped.status).toBe(200);
    expect(zipped.headers['x-cache']).toBe('HIT');
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(zipped.headers['content-length'])).toBe(zipped.body.length);
    expect(zipped.body.length).toBeLessThan(plain.body.length / 3);
    // Compressed exactly once: one gunzip gives the identical JSON bytes.
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);

    const refused = await rawRequest(gw.url, { path, headers: { 'accept-encoding': 'gzip;q=0, identity' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.equals(plain.body)).toBe(true);
    expect(reached(path)).toBe(1);
  });

  it('shows a new version on the next read once the catalog PUBLISHes it', async () => {
    const path = '/api/products?t=publish';
    expect((await json(await fetch(`${gw.url}${path}`))).edition).toBe('A');
    expect((await fetch(`${gw.url}${path}`)).headers.get('x-cache')).toBe('HIT');

    edition = 'B'; // an admin edit lands in the catalog's database…
    const version = await redis.incr(`${prefix}catalog:version`); // …and the catalog announces it
    await redis.publish(`${prefix}catalog:version`, String(version));
    const took = await until(() => gw.cache.stats().version === String(version), 1000);
    expect(took).toBeLessThan(1000); // by pub/sub: this gateway polls only once an hour

    const next = await fetch(`${gw.url}${path}`);
    expect(next.headers.get('x-cache')).toBe('MISS');
    expect((await json(next)).edition).toBe('B');
    expect(reached(path)).toBe(2);
  });

  it('never stores what was fetched before a newer version arrived', async () => {
    const path = '/api/products/slow?t=race';
    const early = fetch(`${gw.url}${path}`).then(json); // the catalog reads edition A, answers in 200 ms
    await until(() => reached(path) === 1, 1000);
    edition = 'C';
    const version = await redis.incr(`${prefix}catalog:version`);
    await redis.publish(`${prefix}catalog:version`, String(version));
    await until(() => gw.cache.stats().version === String(version), 1000);

    expect((await early).edition).toBe('A'); // asked before the change: fine
    const after = await fetch(`${gw.url}${path}`);
    expect(after.headers.get('x-cache')).toBe('MISS');
    expect((await json(after)).edition).toBe('C');
  });

  it('picks up a version bumped without a message (INCR only) within the poll interval', async () => {
    const path = '/api/products?t=poll';
    await fetch(`${polled.url}${path}`).then((r) => r.arrayBuffer());
    expect((await fetch(`${polled.url}${path}`)).headers.get('x-cache')).toBe('HIT');

    edition = 'B';
    await redis.incr(`${pollPrefix}catalog:version`); // the PUBLISH got lost
    await sleep(300); // poll every 50 ms

    const next = await fetch(`${polled.url}${path}`);
    expect(next.headers.get('x-cache')).toBe('MISS');
    expect((await json(next)).edition).toBe('B');
  });

  it.each([
    ['PUT', '/api/admin/products/64b7f0c2a1b2c3d4e5f60718'],
    ['PUT', '/api/products/64b7f0c2a1b2c3d4e5f60718'],
    ['DELETE', '/api/products/64b7f0c2a1b2c3d4e5f60718'],
    ['POST', '/api/admin/products'],
    ['POST', '/api/upload'],
  ])("an admin's own %s %s (2xx) shows on their very next read", async (method, writePath) => {
    const path = `/api/products?t=write-${method}-${writePath.length}`;
    await fetch(`${gw.url}${path}`).then((r) => r.arrayBuffer());
    expect((await fetch(`${gw.url}${path}`)).headers.get('x-cache')).toBe('HIT');

    edition = 'B';
    const write = await fetch(`${gw.url}${writePath}`, {
      method,
      headers: { authorization: 'Bearer admin-token', 'content-type': 'application/json' },
      body: JSON.stringify({ price: 79.99 }),
    });
    expect(write.status).toBeLessThan(300);
    // No message from the catalog here (the stand-in has no Redis): the gateway dropped what it kept.
    const next = await fetch(`${gw.url}${path}`);
    expect(next.headers.get('x-cache')).toBe('MISS');
    expect((await json(next)).edition).toBe('B');
  });

  it('keeps the cache when a write is refused', async () => {
    const path = '/api/products?t=refused';
    await fetch(`${gw.url}${path}`).then((r) => r.arrayBuffer());
    const write = await fetch(`${gw.url}/api/admin/products/64b7f0c2a1b2c3d4e5f60718?status=400`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(write.status).toBe(400);
    expect((await json(write)).message).toBe('Name is required');
    expect((await fetch(`${gw.url}${path}`)).headers.get('x-cache')).toBe('HIT');
  });

  it.each([
    ['/api/products/64b7f0c2a1b2c3d4e5f6ffff?status=404', 404, 'Product not found'],
    ['/api/products?t=boom&status=500', 500, 'Boom'],
  ])('does not keep an error: %s', async (path, status, message) => {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${gw.url}${path}`);
      expect(res.status).toBe(status);
      expect(res.headers.get('x-cache')).toBe('MISS');
      expect(await json(res)).toEqual({ message, statusCode: status });
    }
    expect(reached(path)).toBe(2);
  });

  it('keeps only what the catalog allows shared caches to keep, and nothing over 1 MB; passes the rest on intact', async () => {
    for (let i = 0; i < 2; i++) {
      const text = await fetch(`${gw.url}/api/products/text`); // no Surrogate-Control
      expect(await text.text()).toBe('edition A');
      const huge = await json(await fetch(`${gw.url}/api/products/huge`));
      expect(huge.filler).toHaveLength(1024 * 1024 + 10);
      const notShared = await fetch(`${gw.url}/api/products?t=keep-no&keep=no`);
      expect((await json(notShared)).edition).toBe('A');
      const zero = await fetch(`${gw.url}/api/products?t=keep-0&keep=0`);
      expect((await json(zero)).edition).toBe('A');
      const priv = await fetch(`${gw.url}/api/products/private`);
      expect(priv.headers.get('cache-control')).toBe('private');
      await priv.arrayBuffer();
    }
    for (const path of [
      '/api/products/text',
      '/api/products/huge',
      '/api/products?t=keep-no&keep=no',
      '/api/products?t=keep-0&keep=0',
      '/api/products/private',
    ])
      expect(reached(path)).toBe(2);
  });

  it('keeps an answer no longer than its Surrogate-Control max-age, and never passes that header on', async () => {
    const path = '/api/products?t=max-age&keep=1';
    const first = await fetch(`${gw.url}${path}`);
    expect(first.headers.get('surrogate-control')).toBeNull();
    await first.arrayBuffer();
    expect((await fetch(`${gw.url}${path}`)).headers.get('x-cache')).toBe('HIT');
    await sleep(1100);
    edition = 'B';
    const expired = await fetch(`${gw.url}${path}`);
    expect(expired.headers.get('x-cache')).toBe('MISS');
    expect((await json(expired)).edition).toBe('B');
    expect(reached(path)).toBe(2);
  });

  it('never caches admin reads; public reads ignore the Authorization header and never forward it', async () => {
    for (const path of ['/api/admin/products', '/api/admin/products/64b7f0c2a1b2c3d4e5f60718']) {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${gw.url}${path}`, { headers: { authorization: 'Bearer admin-token' } });
        expect(res.status).toBe(200);
        expect(res.headers.get('x-cache')).toBeNull();
        await res.arrayBuffer();
      }
      expect(reached(path)).toBe(2);
      const seen = catalog.requests.filter((r) => r.url === path && r.method === 'GET');
      expect(seen.map((r) => r.headers.authorization)).toEqual(['Bearer admin-token', 'Bearer admin-token']);
    }

    const path = '/api/products?t=auth';
    const asAdmin = await fetch(`${gw.url}${path}`, { headers: { authorization: 'Bearer admin-token' } });
    expect(asAdmin.headers.get('x-cache')).toBe('MISS');
    const anonymous = await fetch(`${gw.url}${path}`);
    expect(anonymous.headers.get('x-cache')).toBe('HIT');
    expect(await json(anonymous)).toEqual(await json(asAdmin));
    expect(catalog.requests.find((r) => r.url === path)?.headers.authorization).toBeUndefined();
  });

  it('leaves uploaded files to the proxy', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${gw.url}/uploads/jersey-red.svg`);
      expect(res.headers.get('x-cache')).toBeNull();
      await res.arrayBuffer();
    }
    expect(reached('/uploads/jersey-red.svg')).toBe(2);
  });

  it('makes one catalog request for many concurrent misses of one read', async () => {
    const path = '/api/products/slow?t=flight';
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        rawRequest(gw.url, {
          path,
          method: i === 0 ? 'HEAD' : 'GET',
          headers: i % 2 ? { 'accept-encoding': 'gzip' } : {},
        }),
      ),
    );
    expect(reached(path)).toBe(1);
    const bodies = responses
      .slice(1)
      .map((r) => (r.headers['content-encoding'] === 'gzip' ? gunzipSync(r.body) : r.body).toString());
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0])).toMatchObject({ edition: 'A', path: '/api/products/slow' });
    expect((await fetch(`${gw.url}${path}`)).headers.get('x-cache')).toBe('HIT');
  });

  it('answers the JSON 503 when the catalog is down, and keeps nothing', async () => {
    const port = await closedPort();
    const dead = await startGateway(testConfig({ catalog: `http://127.0.0.1:${port}` }));
    try {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${dead.url}/api/products`);
        expect(res.status).toBe(503);
        expect(await json(res)).toEqual({ message: 'Catalog service is unavailable', statusCode: 503 });
      }
    } finally {
      await dead.close();
    }
  });

  it('answers the JSON 503 after PROXY_TIMEOUT_MS when the catalog never answers', async () => {
    const hung = await startHungUpstream('catalog');
    const slowGw = await startGateway(testConfig({ catalog: hung }, { PROXY_TIMEOUT_MS: '300' }));
    try {
      const started = Date.now();
      const res = await fetch(`${slowGw.url}/api/products?t=hung`);
      expect(res.status).toBe(503);
      expect(await json(res)).toEqual({ message: 'Catalog service is unavailable', statusCode: 503 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await slowGw.close();
      await hung.close();
    }
  });

  it('evicts the least recently used read beyond CATALOG_CACHE_MAX_ENTRIES', async () => {
    const get = async (q: string): Promise<string | null> => {
      const res = await fetch(`${small.url}/api/products?t=lru-${q}`);
      await res.arrayBuffer();
      return res.headers.get('x-cache');
    };
    expect(await get('a')).toBe('MISS');
    expect(await get('b')).toBe('MISS');
    expect(await get('a')).toBe('HIT'); // a is now the most recently used
    expect(await get('c')).toBe('MISS'); // evicts b
    expect(await get('a')).toBe('HIT');
    expect(await get('c')).toBe('HIT');
    expect(await get('b')).toBe('MISS');
    expect(reached('/api/products?t=lru-b')).toBe(2);
  });

  it('proxies every read, correctly, while Redis is unreachable', async () => {
    const path = '/api/products?t=down';
    for (const expected of ['A', 'A', 'B']) {
      edition = expected;
      const res = await fetch(`${redisDown.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-cache')).toBe('BYPASS');
      expect((await json(res)).edition).toBe(expected);
    }
    expect(reached(path)).toBe(3);
  });

  it('after a Redis outage (messages lost meanwhile) shows the current data, then caches again', async () => {
    const hop = await startRedisHop();
    const hopPrefix = uniqueCatalogPrefix();
    prefixes.push(hopPrefix);
    const flaky = await startGateway(
      testConfig({ catalog }, { REDIS_URL: hop.url, CATALOG_CACHE_PREFIX: hopPrefix, CATALOG_VERSION_POLL_MS: '50' }),
    );
    const cache = flaky.gateway.httpCache!;
    const path = '/api/products?t=outage';
    const read = async (): Promise<[string | null, string]> => {
      const res = await fetch(`${flaky.url}${path}`);
      return [res.headers.get('x-cache'), (await json(res)).edition];
    };
    try {
      expect(await read()).toEqual(['MISS', 'A']);
      expect(await read()).toEqual(['HIT', 'A']);

      await hop.cut();
      await until(() => cache.stats().version === undefined, 3000);
      edition = 'B'; // an edit during the outage: its PUBLISH never reaches this gateway
      await redis.incr(`${hopPrefix}catalog:version`);
      expect(await read()).toEqual(['BYPASS', 'B']);
      expect(await read()).toEqual(['BYPASS', 'B']);

      await hop.restore();
      await until(() => cache.stats().version !== undefined, 5000);
      expect(await read()).toEqual(['MISS', 'B']);
      expect(await read()).toEqual(['HIT', 'B']);
      expect(reached(path)).toBe(4);
    } finally {
      await flaky.close();
      await hop.cut();
    }
  });

  it('with CATALOG_CACHE=off every read reaches the catalog', async () => {
    const path = '/api/products?t=off';
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${off.url}${path}`);
      expect(res.headers.get('x-cache')).toBeNull();
      await res.arrayBuffer();
    }
    expect(reached(path)).toBe(2);
  });
});

describe('HTTP cache helpers and configuration', () => {
  it('keys GET and HEAD of the routes the route table marks cached, and nothing else', () => {
    expect(cacheKeyOf('GET', '/api/products')).toBe('/api/products');
    expect(cacheKeyOf('HEAD', '/API/Products/Best-Seller/?limit=4')).toBe('/api/products/best-seller?limit=4');
    expect(cacheKeyOf('POST', '/api/products')).toBeUndefined();
    for (const path of [
      '/api/productsx',
      '/api/admin/products',
      '/uploads/a.png',
      '/api/products/../admin/products',
      '/api/products/%2e%2e/admin/products',
      '/api/cart',
    ]) {
      expect(cacheKeyOf('GET', path)).toBeUndefined();
    }
  });

  it('reads Accept-Encoding the way browsers and proxies send it', () => {
    expect(acceptsGzip('gzip, deflate, br')).toBe(true);
    expect(acceptsGzip('br;q=1.0, gzip;q=0.8')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });

  it('is on by default with 20,000 entries, the dev purge channel and a 1 s poll', () => {
    expect(loadConfig({}).catalogCache).toEqual({
      enabled: true,
      maxEntries: 20_000,
      maxBytes: 64 * 1024 * 1024,
      prefix: '',
      versionPollMs: 1000,
    });
    expect(
      loadConfig({
        CATALOG_CACHE: 'off',
        CATALOG_CACHE_MAX_ENTRIES: '20',
        CATALOG_CACHE_MAX_BYTES: '8mb',
        CATALOG_CACHE_PREFIX: 'ci-42.',
        CATALOG_VERSION_POLL_MS: '250',
      }).catalogCache,
    ).toEqual({
      enabled: false,
      maxEntries: 20,
      maxBytes: 8 * 1024 * 1024,
      prefix: 'ci-42.',
      versionPollMs: 250,
    });
    // Same key as the catalog of the deployment by default; an explicit prefix wins.
    expect(loadConfig({ RABBITMQ_NAMESPACE: 'e2e.' }).catalogCache.prefix).toBe('e2e.');
    expect(loadConfig({ RABBITMQ_NAMESPACE: 'e2e.', CATALOG_CACHE_PREFIX: '' }).catalogCache.prefix).toBe('');
  });

  it('refuses bad values at boot', () => {
    let error: unknown;
    try {
      loadConfig({ CATALOG_CACHE: 'maybe', CATALOG_CACHE_MAX_ENTRIES: '0', CATALOG_CACHE_PREFIX: 'a b' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toHaveLength(3);
    expect((error as ConfigError).problems).toEqual(
      expect.arrayContaining([
        'CATALOG_CACHE must be on or off (got "maybe")',
        'CATALOG_CACHE_MAX_ENTRIES must be an integer from 1 to 1000000 (got "0")',
        'CATALOG_CACHE_PREFIX must be 0-100 characters of [A-Za-z0-9:._-] (got "a b")',
      ]),
    );
  });
});
