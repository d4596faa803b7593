import type Redis from 'ioredis';
import { CatalogConfig } from '../config/catalog.config';
import { CatalogCache } from './catalog-cache';

/** A Redis whose GETs answer only when the test says so, with the value the key had when each GET was sent. */
function fakeRedis() {
  let value = '1';
  const pending: Array<() => void> = [];
  const redis = {
    get: jest.fn(() => {
      const seen = value;
      return new Promise<string>((resolve) => pending.push(() => resolve(seen)));
    }),
  };
  return {
    redis: redis as unknown as Redis,
    gets: () => redis.get.mock.calls.length,
    set: (v: string) => (value = v),
    answerNext: async () => {
      pending.shift()!();
      for (let i = 0; i < 10; i++) await Promise.resolve();
    },
  };
}

describe('CatalogCache.readVersion', () => {
  const config = Object.assign(new CatalogConfig(), { RABBITMQ_NAMESPACE: 't.', CATALOG_CACHE_ENTRIES: 10 });

  it('never answers a request with a GET sent before the request arrived, and batches the waiting ones', async () => {
    const fake = fakeRedis();
    const cache = new CatalogCache(fake.redis, config);
    const first = cache.readVersion(); // GET #1 sent, sees "1"
    fake.set('2'); // an admin write lands after GET #1 was sent
    const later = [cache.readVersion(), cache.readVersion(), cache.readVersion()];
    expect(fake.gets()).toBe(1); // the three wait for the next GET rather than piling up
    await fake.answerNext();
    await expect(first).resolves.toBe('1');
    expect(fake.gets()).toBe(2); // GET #2, sent after they arrived
    await fake.answerNext();
    for (const p of later) await expect(p).resolves.toBe('2');
    // Idle again: the next request sends its own GET at once.
    const next = cache.readVersion();
    expect(fake.gets()).toBe(3);
    await fake.answerNext();
    await expect(next).resolves.toBe('2');
  });
});
