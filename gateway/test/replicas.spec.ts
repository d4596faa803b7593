import * as http from 'node:http';
import { closedPort, json, startGateway, startUpstream, testConfig, type Running, type Upstream } from './helpers';
import { Replicas } from '../src/replicas';

describe('Replicas: the turn', () => {
  it('takes replicas in turn and skips those a request tried', () => {
    const r = new Replicas('cart', ['http://a', 'http://b', 'http://c']);
    expect([r.pick(), r.pick(), r.pick(), r.pick()]).toEqual(['http://a', 'http://b', 'http://c', 'http://a']);
    expect(r.pick(new Set(['http://b']))).toBe('http://c');
    expect(r.pick(new Set(['http://a', 'http://b', 'http://c']))).toBeUndefined();
  });

  it('with one URL is that URL, refused or not', () => {
    const r = new Replicas('cart', ['http://a']);
    r.refused('http://a');
    expect(r.isDown('http://a')).toBe(false);
    expect([r.pick(), r.pick()]).toEqual(['http://a', 'http://a']);
    expect(r.pick(new Set(['http://a']))).toBeUndefined();
  });
});

describe('a service with two replicas behind the gateway', () => {
  let one: Upstream;
  let two: Upstream;
  let deadPort: number;
  let gw: Running;
  let revived: http.Server | undefined;

  beforeAll(async () => {
    one = await startUpstream('cart');
    two = await startUpstream('cart');
    deadPort = await closedPort();
    // catalog: the first replica refuses connections (its process is gone), the second serves
    gw = await startGateway(
      testConfig(
        {
          cart: `${one.url},${two.url}`,
          catalog: `http://127.0.0.1:${deadPort},${two.url}`,
        },
        { CATALOG_CACHE: 'off' },
      ),
    );
  });

  afterAll(async () => {
    await gw.close();
    await Promise.all([one.close(), two.close()]);
    if (revived) await new Promise((resolve) => revived!.close(resolve));
  });

  it('spreads requests over the replicas in turn', async () => {
    const before = [one.requests.length, two.requests.length];
    for (let i = 0; i < 6; i++) expect((await fetch(`${gw.url}/api/cart?guestId=g${i}`)).status).toBe(200);
    expect(one.requests.length - before[0]).toBe(3);
    expect(two.requests.length - before[1]).toBe(3);
  });

  it('sends a refused GET to the other replica, and a refused POST gets a JSON 503; then the dead one is passed over', async () => {
    // The first request of each kind goes to the dead replica (first in turn).
    const get = await fetch(`${gw.url}/api/products/abc`);
    expect(get.status).toBe(200);
    expect((await json(get)).url).toBe('/api/products/abc');
    // The dead replica is out of the turn now: every POST goes to the live one.
    const replicasBefore = two.requests.length;
    const posts = await Promise.all(
      Array.from({ length: 4 }, () =>
        fetch(`${gw.url}/api/products`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"name":"x"}',
        }),
      ),
    );
    expect(posts.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(two.requests.length - replicasBefore).toBe(4);
  });

  it('answers a POST refused by its replica with a JSON 503 (its body cannot be sent twice)', async () => {
    const lone = await startGateway(
      testConfig({ catalog: `http://127.0.0.1:${deadPort},${two.url}` }, { CATALOG_CACHE: 'off' }),
    );
    try {
      const res = await fetch(`${lone.url}/api/products`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"x"}',
      });
      expect(res.status).toBe(503);
      expect(await json(res)).toEqual({ message: 'Catalog service is unavailable', statusCode: 503 });
      // a GET refused the same way is answered by the other replica
      expect((await fetch(`${lone.url}/api/products/abc`)).status).toBe(200);
    } finally {
      await lone.close();
    }
  });

  it('takes the replica back once its /health answers', async () => {
    revived = http.createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ service: 'revived', url: req.url }));
    });
    await new Promise<void>((resolve) => revived!.listen(deadPort, '127.0.0.1', resolve));
    const seen = new Set<string>();
    const deadline = Date.now() + 5000;
    while (!seen.has('revived') && Date.now() < deadline) {
      seen.add(String((await json(await fetch(`${gw.url}/api/products/abc`))).service));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(seen).toEqual(new Set(['cart', 'revived'])); // the live replica (a stand-in named cart) and the revived one
  });

  it('sends a GET whose replica drops the connection to the other one; a POST gets the JSON 503', async () => {
    const dropping = await startUpstream('orders', (req) => req.socket.destroy());
    const serving = await startUpstream('orders');
    const pair = await startGateway(testConfig({ orders: `${dropping.url},${serving.url}` }));
    try {
      const get = await fetch(`${pair.url}/api/orders/my-orders`);
      expect(get.status).toBe(200);
      expect(dropping.requests).toHaveLength(1);
      expect(serving.requests).toHaveLength(1);
      // the dropping replica is still in the turn (it accepted the connection): the next POST goes to it
      const post = await fetch(`${pair.url}/api/orders/x`, { method: 'POST', body: '{}' });
      expect(post.status).toBe(503);
      expect((await json(post)).message).toBe('Orders service is unavailable');
      expect(dropping.requests).toHaveLength(2);
    } finally {
      await pair.close();
      await Promise.all([dropping.close(), serving.close()]);
    }
  });
});
