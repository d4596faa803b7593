import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  json,
  closedPort,
  startHungUpstream,
  startUpstream,
  startGateway,
  testConfig,
  type Running,
  type Upstream,
} from './helpers';

describe('when a service is down or hangs', () => {
  let catalog: Upstream;
  let orders: Upstream; // accepts and never answers
  let gw: Running;
  let cartPort: number;

  beforeAll(async () => {
    catalog = await startUpstream('catalog');
    orders = await startHungUpstream('orders');
    cartPort = await closedPort();
    gw = await startGateway(
      testConfig({ catalog, orders, cart: `http://127.0.0.1:${cartPort}` }, { PROXY_TIMEOUT_MS: '300' }),
    );
  });

  afterAll(async () => {
    await gw.close();
    await Promise.all([catalog.close(), orders.close()]);
  });

  it('answers 503 JSON naming the service that refuses connections', async () => {
    const res = await fetch(`${gw.url}/api/cart?guestId=guest_1`);
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const body = await json(res);
    expect(body).toEqual({ message: 'Cart service is unavailable', statusCode: 503 });
    expect(typeof body.message).toBe('string');
  });

  it('answers 503 JSON after the proxy timeout when the service never answers', async () => {
    const started = Date.now();
    const res = await fetch(`${gw.url}/api/orders/my-orders`);
    const elapsed = Date.now() - started;
    expect(res.status).toBe(503);
    expect(await json(res)).toEqual({ message: 'Orders service is unavailable', statusCode: 503 });
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(3000);
    expect(orders.requests.length).toBeGreaterThan(0); // it did reach the service
  });

  it('a POST with a body to a dead service also gets the JSON 503 (no hang)', async () => {
    const res = await fetch(`${gw.url}/api/cart`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ productId: 'x', quantity: 1 }),
    });
    expect(res.status).toBe(503);
    expect((await json(res)).message).toBe('Cart service is unavailable');
  });

  it('keeps serving healthy services while others fail', async () => {
    await Promise.all([
      fetch(`${gw.url}/api/cart`).then((r) => r.arrayBuffer()),
      fetch(`${gw.url}/api/orders/my-orders`).then((r) => r.arrayBuffer()),
    ]);
    const res = await fetch(`${gw.url}/api/products`);
    expect(res.status).toBe(200);
    expect((await json(res)).service).toBe('catalog');
  });

  it('comes back as soon as the service is up again', async () => {
    // Start a service on the port that was refusing.
    const server = http.createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end('{"products":[],"totalPrice":0}');
    });
    await new Promise<void>((resolve) => server.listen(cartPort, '127.0.0.1', resolve));
    expect((server.address() as AddressInfo).port).toBe(cartPort);
    try {
      const res = await fetch(`${gw.url}/api/cart?guestId=guest_1`);
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual({ products: [], totalPrice: 0 });
    } finally {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
  });
});
