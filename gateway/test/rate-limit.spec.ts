import { Redis } from 'ioredis';
import { json, closedPort, startUpstream, startGateway, testConfig, type Running, type Upstream } from './helpers';

const login = (url: string, headers: Record<string, string> = {}) =>
  fetch(`${url}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ email: 'fan@example.com', password: 'wrong-password' }),
  });

describe('rate limits on login and register (Redis)', () => {
  let identity: Upstream;
  let catalog: Upstream;
  let gw: Running;

  beforeAll(async () => {
    [identity, catalog] = await Promise.all([startUpstream('identity'), startUpstream('catalog')]);
    gw = await startGateway(
      testConfig({ identity, catalog }, { RATE_LIMIT_LOGIN_PER_MIN: '3', RATE_LIMIT_REGISTER_PER_MIN: '2' }),
    );
  });

  afterAll(async () => {
    await gw.close();
    await Promise.all([identity.close(), catalog.close()]);
  });

  it('lets N logins a minute through, then answers 429 JSON with Retry-After', async () => {
    const before = identity.requests.length;
    for (let i = 0; i < 3; i += 1) expect((await login(gw.url)).status).toBe(200);

    const limited = await login(gw.url);
    expect(limited.status).toBe(429);
    expect(await json(limited)).toEqual({ message: 'Too many requests, please try again later', statusCode: 429 });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(identity.requests.length - before).toBe(3); // the 4th never reached identity
  });

  it('counts in Redis under the configured prefix', async () => {
    // Shared by every gateway replica: the count lives in Redis, not in this process.
    const redis = new Redis('redis://127.0.0.1:6379');
    try {
      const keys = await redis.keys(`${gw.config.rateLimitPrefix}:login*`);
      expect(keys.length).toBe(1);
    } finally {
      redis.disconnect();
    }
  });

  it('cannot be dodged with a spoofed X-Forwarded-For or a different spelling of the path', async () => {
    expect((await login(gw.url, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(429);
    const shouting = await fetch(`${gw.url}/API/Users/Login/`, { method: 'POST', body: '{}' });
    expect(shouting.status).toBe(429);
  });

  it('leaves other routes alone, and register has its own allowance', async () => {
    const products = await fetch(`${gw.url}/api/products`);
    expect(products.status).toBe(200);
    const profile = await fetch(`${gw.url}/api/users/profile`);
    expect(profile.status).toBe(200);

    const register = () => fetch(`${gw.url}/api/users/register`, { method: 'POST', body: '{}' });
    expect((await register()).status).toBe(200);
    expect((await register()).status).toBe(200);
    const third = await register();
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('rate limits when Redis is down', () => {
  let identity: Upstream;
  let gw: Running;

  beforeAll(async () => {
    identity = await startUpstream('identity');
    const port = await closedPort();
    gw = await startGateway(
      testConfig({ identity }, { REDIS_URL: `redis://127.0.0.1:${port}`, RATE_LIMIT_LOGIN_PER_MIN: '1' }),
    );
  });

  afterAll(async () => {
    await gw.close();
    await identity.close();
  });

  it('fails open: logins still reach identity instead of the shop going down', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const started = Date.now();
      const res = await login(gw.url);
      statuses.push(res.status);
      expect(Date.now() - started).toBeLessThan(2000); // no waiting on a dead Redis
    }
    expect(statuses).toEqual([200, 200, 200]);
    expect(identity.requests.length).toBe(3);
  });
});

describe('rate limits behind a trusted proxy (TRUST_PROXY)', () => {
  let identity: Upstream;
  let gw: Running;

  beforeAll(async () => {
    identity = await startUpstream('identity');
    gw = await startGateway(testConfig({ identity }, { RATE_LIMIT_LOGIN_PER_MIN: '1', TRUST_PROXY: 'loopback' }));
  });

  afterAll(async () => {
    await gw.close();
    await identity.close();
  });

  it("counts each client by the address the trusted hops name, as Express's req.ip tells it", async () => {
    // the ingress (loopback, trusted) names the client last; what the client itself sent before it counts for nothing
    expect((await login(gw.url, { 'x-forwarded-for': '198.51.100.1' })).status).toBe(200);
    expect((await login(gw.url, { 'x-forwarded-for': '198.51.100.2' })).status).toBe(200);
    expect((await login(gw.url, { 'x-forwarded-for': '203.0.113.9, 198.51.100.1' })).status).toBe(429);
    expect((await login(gw.url, { 'x-forwarded-for': '198.51.100.2' })).status).toBe(429);
  });
});
