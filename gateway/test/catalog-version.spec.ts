// The catalog-version follower (src/http-cache/invalidation.ts) on the real Redis. It reads the version on its own
// subscriber connection's schedule, through the process's main client, which fails fast (no offline queue): a read
// refused because that client is not ready yet, or timed out on a busy box, must be tried again soon, not left to
// the next poll (an hour in some deployments; the cache proxies every catalogue read until it is armed).
import { Redis } from 'ioredis';
import pino from 'pino';
import { followCatalogVersion } from '../src/http-cache/invalidation';
import { deleteKeys, uniqueCatalogPrefix } from './helpers';

const noop = { dropAll: () => undefined, purge: () => undefined };

describe('catalog version follower', () => {
  const prefix = uniqueCatalogPrefix();
  let admin: Redis;

  beforeAll(async () => {
    admin = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    await admin.set(`${prefix}catalog:version`, '41');
  });
  afterAll(async () => {
    await deleteKeys(prefix);
    await admin.quit();
  });

  it('arms once the main client is ready, though its subscriber was ready first', async () => {
    // The main client as the gateway builds it (no offline queue), not connected until its first command: the
    // subscriber's read of the version, which it refuses.
    const main = new Redis('redis://127.0.0.1:6379', { enableOfflineQueue: false, lazyConnect: true });
    const get = jest.spyOn(main, 'get');
    const follower = followCatalogVersion(main, { prefix, pollMs: 3_600_000 }, pino({ level: 'silent' }), noop);
    try {
      expect(await follower.whenArmed(3_000)).toBe(true);
      expect(follower.version).toBe('41');
      const reads = await Promise.allSettled(get.mock.results.map((result) => result.value as Promise<unknown>));
      expect(reads[0].status).toBe('rejected'); // the first read was refused: the test saw the case it is about
      expect(reads.at(-1)).toEqual({ status: 'fulfilled', value: '41' });
    } finally {
      await follower.close();
      main.disconnect();
    }
  });
});
