import { readFileSync } from 'node:fs';
import { SERVICES, type ServiceName } from '@shop/contracts';
import { API_DOCUMENT_FILE } from '../src/api-docs/serve';
import { ROUTES } from '../src/routes';
import { json, closedPort, startAllUpstreams, startGateway, testConfig, type Running, type Upstream } from './helpers';

describe("the gateway's own endpoints", () => {
  let upstreams: Record<ServiceName, Upstream>;
  let gw: Running;
  let oneDown: Running;
  let redisDown: Running;

  beforeAll(async () => {
    upstreams = await startAllUpstreams();
    const deadPort = await closedPort();
    gw = await startGateway(testConfig(upstreams));
    oneDown = await startGateway(testConfig({ ...upstreams, orders: `http://127.0.0.1:${deadPort}` }));
    redisDown = await startGateway(
      testConfig(upstreams, { REDIS_URL: `redis://127.0.0.1:${deadPort}`, READY_CHECK_UPSTREAMS: 'false' }),
    );
  });

  afterAll(async () => {
    await Promise.all([gw.close(), oneDown.close(), redisDown.close()]);
    await Promise.all(Object.values(upstreams).map((u) => u.close()));
  });

  it('GET /health answers 200 {status: ok}', async () => {
    const res = await fetch(`${gw.url}/health`);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ status: 'ok' });
  });

  it('GET /ready answers 200 when Redis and every service answer', async () => {
    const res = await fetch(`${gw.url}/ready`);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.status).toBe('ok');
    for (const name of ['redis', ...SERVICES]) expect(body.checks[name]).toBe('up');
    for (const service of SERVICES) expect(upstreams[service].requests.some((r) => r.url === '/health')).toBe(true);
  });

  it('GET /ready answers 503 JSON naming the service that is down', async () => {
    const res = await fetch(`${oneDown.url}/ready`);
    expect(res.status).toBe(503);
    const body = await json(res);
    expect(body.statusCode).toBe(503);
    expect(body.message).toBe('Not ready: orders unavailable');
    expect(body.checks).toMatchObject({ redis: 'up', orders: 'down', catalog: 'up' });
  });

  it('GET /ready answers 503 JSON when Redis is down, while /health stays 200', async () => {
    const res = await fetch(`${redisDown.url}/ready`);
    expect(res.status).toBe(503);
    expect(await json(res)).toEqual({
      message: 'Not ready: redis unavailable',
      statusCode: 503,
      checks: { redis: 'down' },
    });
    expect((await fetch(`${redisDown.url}/health`)).status).toBe(200);
  });

  it('GET /api/docs serves the document the build generated from the services (gateway/dist/openapi.json)', async () => {
    const res = await fetch(`${gw.url}/api/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const doc = await json(res);
    // the source of truth: the merged document scripts/openapi.mjs wrote (openapi.spec.ts checks it against the code)
    expect(doc).toEqual(JSON.parse(readFileSync(API_DOCUMENT_FILE, 'utf8')));
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/users/login'].post.summary).toEqual(expect.any(String));
    expect(doc.paths['/api/users/login'].post.responses['429']).toBeDefined();
    expect(doc.paths['/api/admin/users'].get.responses['403']).toBeDefined();
    expect(doc.paths['/api/admin/users'].get.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths['/api/upload'].post.requestBody.content['multipart/form-data']).toBeDefined();
    expect(doc.paths['/api/products/{id}'].get.parameters[0]).toMatchObject({ name: 'id', in: 'path' });
    expect(doc.components.securitySchemes.bearerAuth.scheme).toBe('bearer');
    // every /api prefix of the route table is documented
    const documented = Object.keys(doc.paths);
    for (const { prefix } of ROUTES.filter((r) => r.prefix.startsWith('/api/'))) {
      expect(documented.some((p) => p === prefix || p.startsWith(`${prefix}/`))).toBe(true);
    }
    // every $ref points at a defined schema
    const refs = JSON.stringify(doc).match(/#\/components\/schemas\/\w+/g) ?? [];
    for (const ref of refs) expect(doc.components.schemas[ref.split('/').pop()!]).toBeDefined();
  });

  it('GET /api/docs/ui/ is a browsable page from the bundled swagger-ui, under the site CSP (no CDN, no inline script)', async () => {
    const redirect = await fetch(`${gw.url}/api/docs/ui`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/api/docs/ui/');
    const page = await fetch(`${gw.url}/api/docs/ui/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    const html = await page.text();
    expect(html).not.toMatch(/<script>|<script [^>]*>[^<\s]|https?:\/\//); // scripts by src only, all local
    for (const src of html.match(/(?:src|href)="[^"]+"/g) ?? []) {
      const asset = await fetch(`${gw.url}/api/docs/ui/${src.split('"')[1]}`);
      expect([src, asset.status]).toEqual([src, 200]);
    }
    expect(await (await fetch(`${gw.url}/api/docs/ui/init.js`)).text()).toContain("url: '/api/docs'");
    // only the files the page uses: not swagger-ui-dist's own index.html (a remote example)
    expect((await fetch(`${gw.url}/api/docs/ui/index.html`)).status).toBe(404);
  });
});
