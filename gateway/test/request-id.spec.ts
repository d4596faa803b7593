import { json, startUpstream, startGateway, testConfig, type Running, type Upstream } from './helpers';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request ids', () => {
  let catalog: Upstream;
  let gw: Running;

  beforeAll(async () => {
    catalog = await startUpstream('catalog');
    // These tests watch what the service receives, so every read must reach it: no catalogue cache
    // (catalog-cache.spec.ts checks request ids on cache hits).
    gw = await startGateway(testConfig({ catalog }, { CATALOG_CACHE: 'off' }));
  });

  afterAll(async () => {
    await gw.close();
    await catalog.close();
  });

  it('generates one when the client sends none, gives it to the service and echoes it', async () => {
    const res = await fetch(`${gw.url}/api/products`);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(UUID);
    expect((await json(res)).requestId).toBe(id);
    expect(catalog.requests.at(-1)?.headers['x-request-id']).toBe(id);
  });

  it('gives every request its own id', async () => {
    const a = await fetch(`${gw.url}/health`);
    const b = await fetch(`${gw.url}/health`);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it('passes a sane incoming id through to the service and back', async () => {
    const res = await fetch(`${gw.url}/api/products/best-seller`, {
      headers: { 'x-request-id': 'web-1700000000.abc_DEF' },
    });
    expect(res.headers.get('x-request-id')).toBe('web-1700000000.abc_DEF');
    expect(catalog.requests.at(-1)?.headers['x-request-id']).toBe('web-1700000000.abc_DEF');
  });

  it.each([
    ['too long', 'a'.repeat(129)],
    ['with spaces and quotes', 'id with "quotes"'],
    ['with a log-injection attempt', 'abc\\nlevel=error'],
  ])('replaces a malformed id (%s)', async (_label, bad) => {
    const res = await fetch(`${gw.url}/api/products`, { headers: { 'x-request-id': bad } });
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(UUID);
    expect(catalog.requests.at(-1)?.headers['x-request-id']).toBe(id);
  });

  it('puts the id on errors too, so a user can quote it', async () => {
    const res = await fetch(`${gw.url}/api/nothing-here`, { headers: { 'x-request-id': 'support-42' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('x-request-id')).toBe('support-42');
  });
});
