import type { IncomingMessage, ServerResponse } from 'node:http';
import { Redis } from 'ioredis';
import { deleteKeys, startGateway, startUpstream, testConfig, type Running, type Upstream } from './helpers';

/**
 * A stock write touches one product: the catalog tags each response with surrogate keys (the products it shows,
 * `sales` when sales order it) and announces `<version> <key>…`, and the gateway drops only what shares a key.
 */

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Stand-in catalog: `?keys=` is the Surrogate-Key header it sends (absent when not given); `&slow` waits 200 ms. */
let edition = 1;
function catalogHandler(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const keys = url.searchParams.get('keys');
  const headers: Record<string, string> = {
    'Content-Type': 'application/json; charset=utf-8',
    'Surrogate-Control': 'max-age=3600',
  };
  if (keys !== null) headers['Surrogate-Key'] = keys;
  const status = url.pathname.endsWith('/missing') ? 404 : 200;
  const body = JSON.stringify({ edition, query: url.search });
  const send = () => {
    res.writeHead(status, headers);
    res.end(body);
  };
  if (url.searchParams.has('slow')) setTimeout(send, 200);
  else send();
}

describe('HTTP cache: dropping only what a change touched', () => {
  let catalog: Upstream;
  let redis: Redis;
  let gw: Running;
  let prefix: string;

  const read = async (path: string): Promise<[string | null, number]> => {
    const res = await fetch(`${gw.url}${path}`);
    return [res.headers.get('x-cache'), ((await res.json()) as { edition: number }).edition];
  };
  /** What the catalog does after a write: the next version, with the keys it purges. */
  const announce = async (keys: string, skip = 0): Promise<void> => {
    const version = (await redis.incrby(`${prefix}catalog:version`, 1 + skip)).toString();
    await redis.publish(`${prefix}catalog:version`, keys ? `${version} ${keys}` : version);
    const deadline = Date.now() + 1000;
    while (gw.gateway.httpCache!.stats().version !== version) {
      if (Date.now() > deadline) throw new Error('the gateway did not hear the version');
      await sleep(5);
    }
  };

  const paths = {
    a: '/api/products/aaa?keys=product:a',
    b: '/api/products/bbb?keys=product:b',
    ab: '/api/products?keys=product:a%20product:b',
    popular: '/api/products?sortBy=popularity&keys=product:b%20sales',
    untagged: '/api/products?sortBy=priceAsc',
    empty: '/api/products?color=Orange&keys=',
  };
  const fillAll = async (): Promise<void> => {
    for (const path of Object.values(paths)) await read(path);
    for (const path of Object.values(paths)) expect([path, (await read(path))[0]]).toEqual([path, 'HIT']);
  };

  beforeAll(async () => {
    catalog = await startUpstream('catalog', catalogHandler);
    redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    const config = testConfig({ catalog }, { CATALOG_VERSION_POLL_MS: '3600000' });
    prefix = config.catalogCache.prefix;
    gw = await startGateway(config);
    // Reads bypass the cache until it knows the catalogue version; the gateway starts after waiting at most 2 s for
    // it, which a loaded CI box can exceed (a clean-clone run saw every read of the first tests BYPASS).
    expect(await gw.gateway.httpCache!.whenArmed(10_000)).toBe(true);
  });
  afterAll(async () => {
    await gw.close();
    await deleteKeys(prefix);
    await redis.quit();
    await catalog.close();
  });
  beforeEach(() => {
    edition += 1;
  });

  it('a stock write drops the responses showing its product, and those that named no products', async () => {
    await fillAll();
    await announce('product:a');
    expect(await read(paths.a)).toEqual(['MISS', edition]);
    expect(await read(paths.ab)).toEqual(['MISS', edition]);
    expect(await read(paths.untagged)).toEqual(['MISS', edition]);
    for (const path of [paths.b, paths.popular, paths.empty]) expect((await read(path))[0]).toBe('HIT');
  });

  it('a sale also drops the responses ordered by sales', async () => {
    await fillAll();
    await announce('product:z sales');
    expect(await read(paths.popular)).toEqual(['MISS', edition]);
    for (const path of [paths.a, paths.b, paths.ab, paths.empty]) expect((await read(path))[0]).toBe('HIT');
  });

  it('drops everything after a missed message, or a change that names no keys', async () => {
    await fillAll();
    await announce('product:a', 1); // the version before it never arrived
    for (const path of Object.values(paths)) expect((await read(path))[0]).toBe('MISS');
    await fillAll();
    await announce(''); // an admin edit
    for (const path of Object.values(paths)) expect((await read(path))[0]).toBe('MISS');
  });

  it('does not keep a fill that was in flight when its product changed, but keeps one that shows other products', async () => {
    const touched = '/api/products?slow&keys=product:a';
    const untouched = '/api/products?slow&keys=product:c';
    const fills = [read(touched), read(untouched)];
    await sleep(50);
    await announce('product:a');
    await Promise.all(fills);
    expect((await read(touched))[0]).toBe('MISS');
    expect((await read(untouched))[0]).toBe('HIT');
  });

  it("never passes the catalog's Surrogate-Key on to clients", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${gw.url}${paths.ab}`);
      expect(res.headers.get('surrogate-key')).toBeNull();
      await res.arrayBuffer();
    }
    const missing = await fetch(`${gw.url}/api/products/missing?keys=product:a`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('surrogate-key')).toBeNull();
    await missing.arrayBuffer();
  });
});
