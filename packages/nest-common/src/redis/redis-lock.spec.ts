import Redis from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { lockName, observeLocks, withRedisLock } from './redis-lock';

describe('withRedisLock (real Redis)', () => {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const key = `test:lock:${process.pid}:${Date.now()}`;

  afterAll(async () => {
    await redis.del(key, `${key}:counter`);
    await redis.quit();
  });

  it('lets one holder at a time run a read-modify-write, so no update is lost', async () => {
    await redis.set(`${key}:counter`, '0');
    const increment = () =>
      withRedisLock(redis, key, async () => {
        const value = Number(await redis.get(`${key}:counter`));
        await sleep(2);
        await redis.set(`${key}:counter`, String(value + 1));
      });
    await Promise.all(Array.from({ length: 25 }, increment));
    expect(await redis.get(`${key}:counter`)).toBe('25');
    expect(await redis.exists(key)).toBe(0);
  });

  it("tells the client's observer of each lock taken, by the name of what it guards (ids left out)", async () => {
    const counted = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const taken: string[] = [];
    observeLocks(counted, (lock) => taken.push(lock));
    try {
      await withRedisLock(counted, `${key}:64b7f9f9f9f9f9f9f9f9f9fa`, async () => undefined);
      await withRedisLock(counted, 'test:lock:admins', async () => undefined);
      await withRedisLock(redis, key, async () => undefined); // another client: its own observer, if any
      expect(taken).toEqual([key, 'test:lock:admins']);
      expect(lockName('catalog:lock:product:64b7f9f9f9f9f9f9f9f9f9fa')).toBe('catalog:lock:product');
      expect(lockName('orders:sales-days')).toBe('orders:sales-days');
    } finally {
      await counted.quit();
    }
  });

  it("gives this process's callers the lock in the order they asked for it", async () => {
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        withRedisLock(redis, key, async () => {
          await sleep(1);
          order.push(i);
        }),
      ),
    );
    expect(order).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });

  it('keeps the queue whole when a caller in it gives up: the ones after it still wait for the holder', async () => {
    let running = 0;
    let overlapped = false;
    const hold = (ms: number) => async () => {
      running++;
      if (running > 1) overlapped = true;
      await sleep(ms);
      running--;
      return ms;
    };
    const holder = withRedisLock(redis, key, hold(150));
    const impatient = withRedisLock(redis, key, hold(1), { waitMs: 30 });
    const patient = withRedisLock(redis, key, hold(5));
    await expect(impatient).rejects.toMatchObject({ status: 503 });
    await expect(holder).resolves.toBe(150);
    await expect(patient).resolves.toBe(5);
    expect(overlapped).toBe(false);
    expect(await redis.exists(key)).toBe(0);
  });

  it('gives up with a 503 when the lock stays taken', async () => {
    await redis.set(key, 'someone-else', 'PX', 2000);
    await expect(withRedisLock(redis, key, async () => 'never', { waitMs: 50 })).rejects.toMatchObject({ status: 503 });
    expect(await redis.get(key)).toBe('someone-else');
    await redis.del(key);
  });

  it('checks what the work requires before waiting and once the lock is taken, and frees the lock when it fails', async () => {
    const unavailable = () => {
      throw Object.assign(new Error('database away'), { status: 503 });
    };
    let reachable = true;
    const requires = () => (reachable ? undefined : unavailable());
    let ran = 0;
    // A holder whose work loses the database; the caller queued behind it must not then run its own work.
    const holder = withRedisLock(
      redis,
      key,
      async () => {
        await sleep(100);
        reachable = false;
        throw new Error('timed out');
      },
      { requires },
    );
    await sleep(20);
    const queued = withRedisLock(redis, key, async () => ran++, { requires });
    await expect(holder).rejects.toThrow('timed out');
    await expect(queued).rejects.toMatchObject({ status: 503 });
    // Known away before the wait: no attempt at the lock at all.
    await redis.set(key, 'someone-else', 'PX', 2000);
    const started = Date.now();
    await expect(withRedisLock(redis, key, async () => ran++, { requires, waitMs: 1000 })).rejects.toMatchObject({
      status: 503,
    });
    expect(Date.now() - started).toBeLessThan(500);
    expect(ran).toBe(0);
    expect(await redis.get(key)).toBe('someone-else');
    await redis.del(key);
  });
});
