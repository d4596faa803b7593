// The services' Redis client against a real Redis behind a TCP proxy that the test black-holes (a hung server).
import Redis from 'ioredis';
import { TcpProxy } from '../testing/tcp-proxy';
import { waitFor } from '../testing/wait-for';
import { withRedisLock } from './redis-lock';
import { createRedis, REDIS_COMMAND_TIMEOUT_MS } from './redis.provider';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const quiet = { warn: () => undefined } as never;

describe('createRedis (real Redis behind a proxy)', () => {
  let proxy: TcpProxy;
  let client: Redis;
  const direct = new Redis(REDIS_URL);
  const key = `test:redis-provider:${process.pid}:${Date.now()}`;

  beforeAll(async () => {
    const front = await TcpProxy.inFrontOf(REDIS_URL, 6379);
    proxy = front.proxy;
    client = createRedis(front.url, quiet);
    await client.ping();
  });
  afterAll(async () => {
    await direct.del(key, `${key}:lock`);
    client.disconnect();
    await direct.quit();
    await proxy.stop();
  });

  it('fails a command a hung Redis never answers in time, and never runs it once Redis is back', async () => {
    await proxy.blackhole();
    const started = Date.now();
    // What a lock or a cart write looks like: the caller is told it failed (and answers 503)...
    await expect(client.set(`${key}:lock`, 'holder', 'PX', 60_000, 'NX')).rejects.toThrow(/timed out/);
    await expect(client.set(key, 'written')).rejects.toThrow(/timed out/);
    expect(Date.now() - started).toBeLessThan(REDIS_COMMAND_TIMEOUT_MS * 2 + 1000);

    await proxy.open();
    await waitFor('the client reconnected', async () => (await client.ping().catch(() => '')) === 'PONG');
    // ...so it must not happen later: no lock nobody holds, no write the caller was told failed.
    expect(await direct.exists(key, `${key}:lock`)).toBe(0);
  });

  it('frees a lock whose release Redis missed as soon as Redis is back, not a TTL later', async () => {
    const lock = `${key}:lock`;
    await withRedisLock(
      client,
      lock,
      async () => {
        await proxy.close(); // Redis goes away while the lock is held: the release cannot reach it
      },
      { ttlMs: 60_000 },
    );
    expect(await direct.exists(lock)).toBe(1);
    await proxy.open();
    await waitFor('the lock released', async () => (await direct.exists(lock)) === 0, 5_000);
  });
});
