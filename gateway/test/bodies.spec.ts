import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { json, rawRequest, startUpstream, startGateway, testConfig, type Running, type Upstream } from './helpers';

const TOO_LARGE = { message: 'Request body is too large', statusCode: 413 };

describe('request bodies stream through the gateway untouched', () => {
  let catalog: Upstream;
  let identity: Upstream;
  let cart: Upstream;
  let gw: Running;

  beforeAll(async () => {
    [catalog, identity, cart] = await Promise.all([
      startUpstream('catalog'),
      startUpstream('identity'),
      startUpstream('cart'),
    ]);
    // Small limits so the tests stay fast: 8 KB for JSON routes, 64 KB for uploads.
    gw = await startGateway(testConfig({ catalog, identity, cart }, { BODY_LIMIT: '8kb', UPLOAD_BODY_LIMIT: '64kb' }));
  });

  afterAll(async () => {
    await gw.close();
    await Promise.all([catalog.close(), identity.close(), cart.close()]);
  });

  it('delivers a JSON POST body byte for byte with its content type', async () => {
    const json =
      '{"name":"Jos\u00e9 M\u00fcller","email":"  Fan@Example.COM ","password":"s3cret-\u{1F3C8}","n":[1,2.5,null]}';
    const res = await fetch(`${gw.url}/api/users/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: json,
    });
    expect(res.status).toBe(200);
    const seen = identity.requests.at(-1)!;
    expect(seen.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(seen.body.equals(Buffer.from(json, 'utf8'))).toBe(true);
  });

  it('delivers a multipart upload with a binary file part byte for byte', async () => {
    const image = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(20_000)]);
    const form = new FormData();
    form.append('altText', 'Red home jersey');
    form.append('image', new Blob([image], { type: 'image/png' }), 'jersey.png');
    // Serialise once so we know the exact bytes (and boundary) that went on the wire.
    const encoded = new Request('http://localhost/', { method: 'POST', body: form });
    const payload = Buffer.from(await encoded.arrayBuffer());
    const contentType = encoded.headers.get('content-type')!;
    expect(contentType).toMatch(/^multipart\/form-data; boundary=/);

    const res = await fetch(`${gw.url}/api/upload`, {
      method: 'POST',
      headers: { 'content-type': contentType, authorization: 'Bearer admin-token' },
      body: payload,
    });
    expect(res.status).toBe(200);
    const seen = catalog.requests.at(-1)!;
    expect(seen.url).toBe('/api/upload');
    expect(seen.headers['content-type']).toBe(contentType);
    expect(seen.body.equals(payload)).toBe(true);
    expect(seen.body.includes(image)).toBe(true);
  });

  it('refuses a body whose Content-Length is over the limit with a JSON 413, without calling the service', async () => {
    const before = cart.requests.length;
    const res = await rawRequest(gw.url, {
      method: 'POST',
      path: '/api/cart',
      headers: { 'content-type': 'application/json', 'content-length': String(9 * 1024) },
      chunks: [Buffer.from('{"productId":"')],
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body.toString())).toEqual(TOO_LARGE);
    expect(cart.requests.length).toBe(before);
  });

  it('reads an over-limit body to its end before dropping it: the client hears the 413, and the connection serves on', async () => {
    const before = cart.requests.length;
    const body = Buffer.alloc(512 * 1024, 0x20); // 64 × the limit, sent whole and at once
    const head = (method: string, path: string, length: number) =>
      `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
    const socket = net.connect(Number(new URL(gw.url).port), '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.write(head('POST', '/api/cart', body.length));
    socket.write(body);
    socket.write(head('GET', '/health', 0));
    const answered = () =>
      (
        Buffer.concat(received)
          .toString()
          .match(/HTTP\/1\.1 \d{3}/g) ?? []
      ).length;
    const deadline = Date.now() + 5_000;
    while (answered() < 2 && !socket.destroyed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    socket.destroy();

    const text = Buffer.concat(received).toString();
    expect(text.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 413', 'HTTP/1.1 200']);
    expect(text).toContain(JSON.stringify(TOO_LARGE));
    expect(cart.requests.length).toBe(before);
  });

  it('lets the upload route take a body larger than the JSON limit, but not above its own', async () => {
    const body = randomBytes(40 * 1024);
    const ok = await fetch(`${gw.url}/api/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body,
    });
    expect(ok.status).toBe(200);
    expect(catalog.requests.at(-1)!.body.equals(body)).toBe(true);

    const onJsonRoute = await fetch(`${gw.url}/api/admin/products`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'x'.repeat(40 * 1024) }),
    });
    expect(onJsonRoute.status).toBe(413);
    expect(await json(onJsonRoute)).toEqual(TOO_LARGE);

    const tooBig = await rawRequest(gw.url, {
      method: 'POST',
      path: '/api/upload',
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(65 * 1024) },
      chunks: [Buffer.alloc(1024)],
    });
    expect(tooBig.status).toBe(413);
  });

  it('cuts off a chunked body (no Content-Length) once it passes the limit', async () => {
    const res = await rawRequest(gw.url, {
      method: 'POST',
      path: '/api/cart',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      chunks: Array.from({ length: 20 }, () => Buffer.alloc(1024, 0x20)),
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body.toString())).toEqual(TOO_LARGE);
    // whatever reached the service was never a complete 20 KB body
    expect(cart.requests.every((r) => r.body.length < 20 * 1024)).toBe(true);
  });

  it('passes a chunked body under the limit through intact', async () => {
    const chunks = [Buffer.from('{"productId":"abc",'), Buffer.from('"quantity":2}')];
    const res = await rawRequest(gw.url, {
      method: 'POST',
      path: '/api/cart',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      chunks,
    });
    expect(res.status).toBe(200);
    expect(cart.requests.at(-1)!.body.toString()).toBe('{"productId":"abc","quantity":2}');
  });
});
