import type { IncomingMessage, ServerResponse } from 'node:http';
import { Redis } from 'ioredis';
import { deleteKeys, startGateway, startUpstream, testConfig, type Running, type Upstream } from './helpers';

/**
 * A stock write without a sale changes one product's bytes, not which products a list shows: the gateway keeps the
 * lists showing it and replaces that product's bytes in them from the product's own page, fetched once. What a
 * client gets is always what the catalog answers at that moment, byte for byte, on every replica.
 */

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The stand-in catalog's products: stock levels, and which are published. */
const stock: Record<string, number> = { aaa: 5, bbb: 7, ccc: 9 };
const unpublished = new Set<string>();
/** While set, product pages are answered this many ms after the request (with the bytes of its arrival). */
let pageDelayMs = 0;

const productJson = (id: string): string =>
  JSON.stringify({ _id: id, name: `Ravens Cap ${id}`, description: 'Wool, "classic" fit', countInStock: stock[id] });

/**
 * GET /api/products/<id>: the product. GET /api/products?show=aaa,bbb[&sortBy=popularity]: a list of them, with
 * the Surrogate-Key (and `sales` when sorted by sales) and Product-Lengths headers the catalog sends.
 */
function catalogHandler(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const headers = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'public, no-cache' };
  const page = /^\/api\/products\/(\w+)$/.exec(url.pathname)?.[1];
  if (page) {
    if (!(page in stock) || unpublished.has(page)) {
      res.writeHead(404, headers);
      res.end('{"statusCode":404,"message":"Product not found"}');
      return;
    }
    const body = productJson(page);
    const send = () => {
      res.writeHead(200, { ...headers, 'Surrogate-Key': `product:${page}` });
      res.end(body);
    };
    if (pageDelayMs) setTimeout(send, pageDelayMs);
    else send();
    return;
  }
  const ids = (url.searchParams.get('show') ?? '').split(',').filter((id) => id in stock && !unpublished.has(id));
  const products = ids.map(productJson);
  const keys = ids.map((id) => `product:${id}`);
  if (url.searchParams.get('sortBy') === 'popularity') keys.push('sales');
  res.writeHead(200, {
    ...headers,
    'Surrogate-Key': keys.join(' '),
    'Product-Lengths': products.map((p) => Buffer.byteLength(p)).join(' '),
  });
  res.end(`[${products.join(',')}]`);
}

describe('catalogue cache: a stock write patches the lists showing its product', () => {
  let catalog: Upstream;
  let redis: Redis;
  let gateways: Running[];
  let prefix: string;

  const read = async (gw: Running, path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${gw.url}${path}`, { headers });
    return {
      status: res.status,
      cache: res.headers.get('x-cache'),
      etag: res.headers.get('etag'),
      body: await res.text(),
    };
  };
  const fromCatalog = (path: string) => fetch(`${catalog.url}${path}`).then((res) => res.text());
  const asked = (path: string) => catalog.requests.filter((r) => r.url === path).length;
  /** What the catalog does after a stock write: the next version, naming the keys it purges; heard by every gateway. */
  const announce = async (keys: string): Promise<void> => {
    const version = (await redis.incr(`${prefix}catalog:version`)).toString();
    await redis.publish(`${prefix}catalog:version`, `${version} ${keys}`);
    const deadline = Date.now() + 1000;
    while (gateways.some((gw) => gw.gateway.catalogCache!.stats().version !== version)) {
      if (Date.now() > deadline) throw new Error('a gateway did not hear the version');
      await sleep(5);
    }
  };
  const stockWrite = (id: string, level: number, keys = `product:${id}`): Promise<void> => {
    stock[id] = level;
    return announce(keys);
  };

  beforeAll(async () => {
    catalog = await startUpstream('catalog', catalogHandler);
    redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    const config = testConfig({ catalog }, { CATALOG_VERSION_POLL_MS: '3600000' });
    prefix = config.catalogCache.prefix;
    gateways = [await startGateway(config), await startGateway(config)]; // two replicas, one Redis
    // A gateway starts without waiting more than 2 s for the catalog version (a busy CI box can take longer): the
    // tests below begin from caches that follow it.
    for (const gw of gateways) expect(await gw.gateway.catalogCache!.whenArmed(10_000)).toBe(true);
  });
  afterAll(async () => {
    await Promise.all(gateways.map((gw) => gw.close()));
    await deleteKeys(prefix);
    await redis.quit();
    await catalog.close();
  });
  beforeEach(() => {
    pageDelayMs = 0;
    unpublished.clear();
  });

  it('serves the new bytes from the kept list on every replica, asking the catalog for the product only', async () => {
    const list = '/api/products?show=aaa,bbb,ccc';
    const before = await Promise.all(gateways.map((gw) => read(gw, list)));
    expect(before.map((r) => r.body)).toEqual([await fromCatalog(list), await fromCatalog(list)]);
    const listReads = asked(list);

    await stockWrite('bbb', 6);
    for (const gw of gateways) {
      const after = await read(gw, list);
      expect(after.cache).toBe('HIT');
      expect(after.body).toBe(await fromCatalog(list)); // byte for byte
      expect(JSON.parse(after.body)[1].countInStock).toBe(6);
      expect(after.etag).not.toBe(before[0].etag);
      // A client holding the old bytes gets the new ones; one holding the new ones gets a 304.
      expect((await read(gw, list, { 'If-None-Match': before[0].etag! })).status).toBe(200);
      expect((await read(gw, list, { 'If-None-Match': after.etag! })).status).toBe(304);
      expect(gw.gateway.catalogCache!.stats().patched).toBeGreaterThan(0);
    }
    expect(asked(list) - listReads).toBe(2); // the direct reads above, not the gateways
    expect(asked('/api/products/bbb')).toBe(2); // one product read per replica, whatever lists showed it
  });

  it('patches every product a list shows that changed, and serves the product page fresh too', async () => {
    const list = '/api/products?show=ccc,aaa';
    for (const gw of gateways) await read(gw, list);
    await stockWrite('aaa', 4);
    await stockWrite('ccc', 8);
    for (const gw of gateways) {
      expect(await read(gw, list)).toMatchObject({ cache: 'HIT', body: await fromCatalog(list) });
      expect((await read(gw, '/api/products/ccc')).body).toBe(productJson('ccc'));
    }
  });

  it('drops a list ordered by sales after a sale, but patches one that is not', async () => {
    const popular = '/api/products?show=aaa,bbb&sortBy=popularity';
    const byPrice = '/api/products?show=aaa,bbb&sortBy=priceAsc';
    const gw = gateways[0];
    await read(gw, popular);
    await read(gw, byPrice);
    await stockWrite('aaa', 3, 'product:aaa sales');
    expect(await read(gw, popular)).toMatchObject({ cache: 'MISS', body: await fromCatalog(popular) });
    expect(await read(gw, byPrice)).toMatchObject({ cache: 'HIT', body: await fromCatalog(byPrice) });
  });

  it('fetches the list again when the product cannot be read (unpublished meanwhile)', async () => {
    const list = '/api/products?show=aaa,bbb&x=1';
    const gw = gateways[0];
    await read(gw, list);
    unpublished.add('aaa');
    await stockWrite('aaa', 2);
    expect(await read(gw, list)).toMatchObject({ cache: 'MISS', body: await fromCatalog(list) });
  });

  it('never serves bytes older than the last change heard, when a product changes again while being fetched', async () => {
    const list = '/api/products?show=aaa,ccc&x=2';
    const gw = gateways[0];
    await read(gw, list);
    await stockWrite('aaa', 11);
    pageDelayMs = 200;
    const reading = read(gw, list); // needs aaa's page: answered 200 ms later with countInStock 11
    await sleep(50);
    await stockWrite('aaa', 12); // heard while that page is on its way
    pageDelayMs = 0;
    const answer = await reading;
    expect(JSON.parse(answer.body)[0].countInStock).toBe(12);
    expect(answer.body).toBe(await fromCatalog(list));
    expect((await read(gw, list)).body).toBe(await fromCatalog(list));
  });

  it('keeps lists without Product-Lengths as before: dropped by a change of a product they show', async () => {
    const gw = gateways[0];
    const plain = '/api/products/bbb'; // a product page names its product and has no parts
    await read(gw, plain);
    await stockWrite('bbb', 1);
    expect(await read(gw, plain)).toMatchObject({ cache: 'MISS', body: productJson('bbb') });
  });
});
