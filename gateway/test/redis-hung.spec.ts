// The gateway's own Redis hung (issue 12): connections accepted, nothing answered — a paused server or a
// black-holed network, unlike a refused connection, which the other suites cover. Redis serves the gateway only as
// a helper (the catalog version its cache follows, the login and register rate limits), so catalogue reads and
// logins must keep answering within a bound well under PROXY_TIMEOUT_MS: the cache bypassed, the limits failing
// open. When Redis answers again, the cache and the limits come back by themselves.
import { TcpProxy } from '@shop/nest-common/testing';
import { Redis } from 'ioredis';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  deleteKeys,
  startGateway,
  startUpstream,
  testConfig,
  uniqueCatalogPrefix,
  type Running,
  type Upstream,
} from './helpers';

jest.setTimeout(60_000);

/** Well under the gateway's upstream timeout (PROXY_TIMEOUT_MS, 10 s): Redis commands time out after 1 s. */
const BOUND_MS = 3_000;

describe('gateway when its Redis hangs', () => {
  let proxy: TcpProxy;
  let catalog: Upstream;
  let identity: Upstream;
  let gw: Running;
  let redis: Redis;
  const prefix = uniqueCatalogPrefix();

  beforeAll(async () => {
    ({ proxy } = await TcpProxy.inFrontOf('redis://127.0.0.1:6379', 6379));
    catalog = await startUpstream('catalog', (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Surrogate-Control': 'max-age=60' });
      res.end(JSON.stringify([{ _id: '64b7f0c2a1b2c3d4e5f60001', name: 'Home Jersey', price: 89.99 }]));
    });
    identity = await startUpstream('identity');
    redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    await redis.set(`${prefix}catalog:version`, '7');
    gw = await startGateway(
      testConfig(
        { catalog, identity },
        {
          REDIS_URL: `redis://127.0.0.1:${proxy.listeningPort}`,
          CATALOG_CACHE_PREFIX: prefix,
          CATALOG_VERSION_POLL_MS: '200',
          RATE_LIMIT_LOGIN_PER_MIN: '1000',
        },
      ),
    );
    await gw.gateway.httpCache!.whenArmed(5_000);
  });

  afterAll(async () => {
    await proxy?.open();
    await gw?.close();
    await deleteKeys(prefix);
    await redis?.quit();
    await proxy?.stop();
    await catalog?.close();
    await identity?.close();
  });

  const reads = () => catalog.requests.filter((r) => r.url === '/api/products').length;
  async function timed(path: string, init?: RequestInit) {
    const started = Date.now();
    const res = await fetch(`${gw.url}${path}`, init);
    const body = await res.text();
    return { status: res.status, body, headers: res.headers, ms: Date.now() - started };
  }
  const read = () => timed('/api/products');
  const login = () =>
    timed('/api/users/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'fan@example.com', password: 'secret-password' }),
    });
  /** Reads the catalog answers itself from now on: the cache is bypassed (or was emptied). */
  async function readsReachingCatalog(count: number): Promise<number> {
    const before = reads();
    for (let i = 0; i < count; i++) {
      const res = await read();
      expect({ status: res.status, fast: res.ms < BOUND_MS }).toEqual({ status: 200, fast: true });
    }
    return reads() - before;
  }
  async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('keeps answering catalogue reads (cache bypassed) and logins (limits fail open) in time, and recovers', async () => {
    // Healthy: the second read comes from the cache, a login is counted.
    expect(await readsReachingCatalog(3)).toBe(1);
    const counted = await login();
    expect(counted.status).toBe(200);
    expect(counted.headers.get('ratelimit-remaining')).not.toBeNull();

    await proxy.blackhole();

    // The version poll cannot read the counter: the cache stops answering, so no read is served from a catalogue
    // it can no longer tell is current; every read still answers, from the catalog, in time.
    await eventually('the cache bypassed', async () => (await readsReachingCatalog(1)) === 1);
    expect(await readsReachingCatalog(3)).toBe(3);
    // Logins are not held hostage by the rate limiter: each waits at most a command timeout, then goes through.
    const logins = await Promise.all([login(), login(), login()]);
    for (const res of logins) {
      expect({ status: res.status, fast: res.ms < BOUND_MS }).toEqual({ status: 200, fast: true });
      expect(res.headers.get('ratelimit-remaining')).toBeNull();
    }
    // Other routes are untouched by a hung Redis.
    const other = await timed('/api/users/profile');
    expect({ status: other.status, fast: other.ms < BOUND_MS }).toEqual({ status: 200, fast: true });

    await proxy.open();

    // Without a restart: the cache follows the version again, the limits count again.
    await eventually('the cache serving again', async () => (await readsReachingCatalog(2)) <= 1);
    expect(await readsReachingCatalog(3)).toBe(0);
    await eventually('logins counted again', async () => (await login()).headers.get('ratelimit-remaining') !== null);
  });
});
