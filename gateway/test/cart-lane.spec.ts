// The cart lane (src/cart-lane.ts) against stand-in upstreams: what it forwards and answers must be what the Express
// path (http-proxy) forwards and answers for the same request. `/api/cart/` (trailing slash) is the same route to
// the cart service but always takes the Express path, so each case sends both and compares.
import * as http from 'node:http';
import { gunzipSync } from 'node:zlib';
import {
  rawRequest,
  startGateway,
  startHungUpstream,
  startUpstream,
  testConfig,
  type RawResponse,
  type Recorded,
  type Running,
  type Upstream,
} from './helpers';

/**
 * A cart answer as the cart service writes it: JSON with Express's headers. `?lines=N` makes it N lines long (40:
 * over the compression threshold), `?cache=…` and `?vary=…` give it those headers.
 */
function cartService(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): void {
  const lines = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('lines') ?? 1);
  const products = Array.from({ length: lines }, (_, i) => ({
    productId: `p${i}`,
    name: 'Packers Jersey',
    quantity: 1,
  }));
  const json = JSON.stringify({ products, totalPrice: 25 * lines, bodyLength: body.length });
  res.statusCode = req.method === 'POST' ? 201 : 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  // Headers the compression middleware weighs, when a test asks for them.
  const query = new URL(req.url ?? '/', 'http://x').searchParams;
  if (query.get('cache')) res.setHeader('Cache-Control', query.get('cache')!);
  if (query.get('vary')) res.setHeader('Vary', query.get('vary')!);
  res.setHeader('X-Powered-By', 'Express');
  res.setHeader('ETag', 'W/"1f-abc"');
  res.setHeader('X-Request-Id', String(req.headers['x-request-id']));
  res.end(json);
}

/** Headers whose values differ per request by nature. */
const PER_REQUEST = new Set(['date', 'x-request-id']);
const stable = (headers: http.IncomingHttpHeaders | Recorded['headers']) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_REQUEST.has(name)));

/**
 * What cart saw, less Connection: the Express path's proxy passes on the client's (this client's is `close`), while
 * the lane keeps its own connections to cart alive whatever the client's hop does (a test below).
 */
const stableSeen = (headers: Recorded['headers']) => {
  const { connection: _hop, ...rest } = stable(headers);
  return rest;
};

/** Express's own entry point (app.handle: in its runtime, not in its types), to tell which path answered. */
const spyOnExpress = (gw: { gateway: { app: unknown } }): jest.SpyInstance =>
  jest.spyOn(gw.gateway.app as { handle: (...args: unknown[]) => void }, 'handle');
describe('the cart lane', () => {
  let cart: Upstream;
  let gw: Running;
  let express: jest.SpyInstance;

  beforeAll(async () => {
    cart = await startUpstream('cart', cartService);
    gw = await startGateway(testConfig({ cart }, { BODY_LIMIT: '8kb' }));
  });
  beforeEach(() => {
    express = spyOnExpress(gw);
  });
  afterEach(() => express.mockRestore());
  afterAll(async () => {
    await gw.close();
    await cart.close();
  });

  /** Sends one request on the lane's path and the same on the Express path; returns both and what cart saw. */
  async function both(options: { method?: string; query?: string; headers?: http.OutgoingHttpHeaders; body?: string }) {
    const send = async (path: string) => {
      const before = cart.requests.length;
      const res = await rawRequest(gw.url, {
        method: options.method,
        path: `${path}${options.query ?? ''}`,
        headers: {
          host: 'shop.example:8443',
          ...(options.body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(options.body)) }),
          ...options.headers,
        },
        chunks: options.body === undefined ? [] : [Buffer.from(options.body)],
      });
      expect(cart.requests.length).toBe(before + 1);
      return { res, seen: cart.requests.at(-1)! };
    };
    express.mockClear();
    const lane = await send('/api/cart');
    expect(express.mock.calls).toHaveLength(0);
    const full = await send('/api/cart/');
    expect(express.mock.calls).toHaveLength(1);
    return { lane, full };
  }

  it('forwards a cart read with the headers the Express path forwards, and answers with the same headers', async () => {
    const { lane, full } = await both({ query: '?guestId=guest_1', headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(lane.seen.url).toBe('/api/cart?guestId=guest_1');
    expect(lane.seen.headers['x-forwarded-for']).toBe('203.0.113.9,127.0.0.1');
    expect(lane.seen.headers['x-forwarded-port']).toBe('8443');
    expect(lane.seen.headers['x-forwarded-proto']).toBe('http');
    expect(lane.seen.headers['x-forwarded-host']).toBe('shop.example:8443');
    expect(stableSeen(lane.seen.headers)).toEqual(stableSeen(full.seen.headers));

    expect(lane.res.status).toBe(200);
    expect(lane.res.headers['x-powered-by']).toBeUndefined();
    expect(lane.res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(lane.res.headers.vary).toBe('Accept-Encoding');
    expect(stable(lane.res.headers)).toEqual(stable(full.res.headers));
    expect(lane.res.body.equals(full.res.body)).toBe(true);
  });

  it('forwards an add with its body, and answers its status (201)', async () => {
    const body = JSON.stringify({ productId: 'a'.repeat(24), quantity: 2, guestId: 'guest_1' });
    const { lane, full } = await both({ method: 'POST', body });
    expect(lane.seen.body.toString()).toBe(body);
    expect(lane.res.status).toBe(201);
    expect(JSON.parse(lane.res.body.toString()).bodyLength).toBe(body.length);
    expect(stableSeen(lane.seen.headers)).toEqual(stableSeen(full.seen.headers));
    expect(stable(lane.res.headers)).toEqual(stable(full.res.headers));
  });

  it("keeps its connection to cart alive and answers the client's own Connection as asked", async () => {
    const closing = await both({ query: '?guestId=guest_1' });
    expect(closing.lane.seen.headers.connection).toBe('keep-alive');
    expect(closing.full.seen.headers.connection).toBe('close');
    expect(closing.lane.res.headers.connection).toBe('close');
    expect(closing.lane.res.headers['keep-alive']).toBeUndefined();

    // A client that keeps its connection: two requests on one socket, both answered, and told so by the gateway.
    express.mockClear();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    try {
      for (let i = 0; i < 2; i++) {
        const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
          const req = http.get(`${gw.url}/api/cart?guestId=guest_1`, { agent }, resolve);
          req.on('socket', (socket) => sockets.add(socket));
          req.on('error', reject);
        });
        res.resume();
        await new Promise((resolve) => res.on('end', resolve));
        expect(res.statusCode).toBe(200);
        expect(res.headers.connection).toBe('keep-alive');
        expect(res.headers['keep-alive']).toBe('timeout=65'); // the gateway's own, not the stand-in cart's (5 s)
      }
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
    }
    expect(express.mock.calls).toHaveLength(0);
  });

  it("keeps the client's request id (sent on to cart and back), or makes one", async () => {
    const kept = await both({ query: '?guestId=guest_1', headers: { 'x-request-id': 'client-id-42' } });
    expect(kept.lane.seen.headers['x-request-id']).toBe('client-id-42');
    expect(kept.lane.res.headers['x-request-id']).toBe('client-id-42');
    const made = await both({ query: '?guestId=guest_1', headers: { 'x-request-id': 'bad id!' } });
    expect(made.lane.res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(made.lane.seen.headers['x-request-id']).toBe(made.lane.res.headers['x-request-id']);
  });

  it('compresses a large cart for a client that accepts gzip, as the Express path does', async () => {
    const { lane, full } = await both({ query: '?lines=40', headers: { 'accept-encoding': 'gzip' } });
    expect(lane.res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(lane.res.body).toString()).products).toHaveLength(40);
    expect(stable(lane.res.headers)).toEqual(stable(full.res.headers));
  });

  it('leaves a small cart uncompressed with the Vary the Express path adds, even for a client that accepts gzip', async () => {
    const { lane, full } = await both({ query: '?lines=1', headers: { 'accept-encoding': 'gzip' } });
    expect(lane.res.headers['content-encoding']).toBeUndefined();
    expect(lane.res.headers.vary).toBe('Accept-Encoding');
    expect(stable(lane.res.headers)).toEqual(stable(full.res.headers));
    expect(lane.res.body.equals(full.res.body)).toBe(true);
  });

  it.each([
    ['Cache-Control: no-transform, large', '?lines=40&cache=no-transform'],
    ['Cache-Control: no-transform, small', '?lines=1&cache=no-transform'],
    ['a Vary of its own, large', '?lines=40&vary=Origin'],
    ['a Vary of its own, small', '?lines=1&vary=Origin'],
    ['Cache-Control: private, large', '?lines=40&cache=private'],
  ])('compresses (or not) an answer with %s as the Express path does', async (_what, query) => {
    const { lane, full } = await both({ query, headers: { 'accept-encoding': 'gzip' } });
    expect(stable(lane.res.headers)).toEqual(stable(full.res.headers));
    expect(lane.res.body.equals(full.res.body)).toBe(true);
  });

  it('leaves to Express what it does not forward: other methods, chunked bodies, bodies over the limit', async () => {
    const put = await rawRequest(gw.url, { method: 'PUT', path: '/api/cart', headers: { 'content-length': '0' } });
    expect(put.status).toBe(200);
    const chunked = await rawRequest(gw.url, {
      method: 'POST',
      path: '/api/cart',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      chunks: [Buffer.from('{"quantity":'), Buffer.from('1}')],
    });
    expect(chunked.status).toBe(201);
    const tooLarge: RawResponse = await rawRequest(gw.url, {
      method: 'POST',
      path: '/api/cart',
      headers: { 'content-type': 'application/json', 'content-length': String(9 * 1024) },
      chunks: [Buffer.alloc(9 * 1024, 0x20)],
    });
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.body.toString())).toEqual({ message: 'Request body is too large', statusCode: 413 });
    expect(express.mock.calls).toHaveLength(3);
  });
});

describe('the cart lane when cart hangs', () => {
  let cart: Upstream;
  let gw: Running;

  beforeAll(async () => {
    cart = await startHungUpstream('cart');
    gw = await startGateway(testConfig({ cart }, { PROXY_TIMEOUT_MS: '300' }));
  });
  afterAll(async () => {
    await gw.close();
    await cart.close();
  });

  it('answers a JSON 503 after the proxy timeout, never HTML', async () => {
    const express = spyOnExpress(gw);
    const started = Date.now();
    const res = await rawRequest(gw.url, { path: '/api/cart?guestId=guest_1' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(JSON.parse(res.body.toString())).toEqual({ message: 'Cart service is unavailable', statusCode: 503 });
    expect(cart.requests.length).toBe(1);
    expect(express.mock.calls).toHaveLength(0);
    // The same answer as the Express path's, headers and all.
    const full = await rawRequest(gw.url, { path: '/api/cart/?guestId=guest_1' });
    expect(express.mock.calls).toHaveLength(1);
    expect(full.status).toBe(503);
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(stable(res.headers)).toEqual(stable(full.headers));
    expect(res.body.equals(full.body)).toBe(true);
  });
});

describe('the cart lane when cart cuts its answer off', () => {
  let cart: Upstream;
  let gw: Running;

  /** `?declared=N&sent=M`: an answer that declares N bytes of JSON, sends M of them, then drops the connection. */
  const cutOff: Parameters<typeof startUpstream>[1] = (req, res) => {
    const query = new URL(req.url ?? '/', 'http://x').searchParams;
    const declared = Number(query.get('declared'));
    res.writeHead(200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(declared),
      ETag: 'W/"cut-off"',
    });
    res.flushHeaders();
    const sent = Number(query.get('sent'));
    if (sent > 0) res.write(Buffer.alloc(sent, 0x20));
    setTimeout(() => res.socket?.destroy(), 50);
  };

  beforeAll(async () => {
    cart = await startUpstream('cart', cutOff);
    gw = await startGateway(testConfig({ cart }));
  });
  afterAll(async () => {
    await gw.close();
    await cart.close();
  });

  it.each([
    ['a small answer, part of it sent (it is sent whole, so nothing of it left yet)', '?declared=500&sent=100'],
    ['a large answer, nothing of its body sent yet', '?declared=5000&sent=0'],
  ])('answers the JSON 503 for %s, without any of the cut answer’s headers', async (_what, query) => {
    const res = await rawRequest(gw.url, { path: `/api/cart${query}` });
    expect(res.status).toBe(503);
    expect(JSON.parse(res.body.toString())).toEqual({ message: 'Cart service is unavailable', statusCode: 503 });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers.etag).toBeUndefined();
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('drops the client’s connection when part of the body was already on its way (never a short body taken as whole)', async () => {
    const res = await fetch(`${gw.url}/api/cart?declared=5000&sent=2000`);
    expect(res.status).toBe(200);
    await expect(res.arrayBuffer()).rejects.toThrow();
    // The gateway is still up and answering.
    const again = await rawRequest(gw.url, { path: '/api/cart?declared=500&sent=0' });
    expect(again.status).toBe(503);
  });
});
