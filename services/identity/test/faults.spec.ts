// Identity with each dependency made unavailable and restored (issue 12), through TCP proxies this suite controls:
// refused connections (a stopped server) and black holes (a hung server, a dropped network). What does not need
// the dependency keeps working; what does answers a JSON 503 well within the gateway's 10 s; /ready says which;
// and everything works again once it is back, without a restart.
import { request, startTestService, TcpProxy, type TestService } from '@shop/nest-common/testing';
import { AppModule } from '../src/app.module';
import { PASSWORD, uniqueEmail } from './identity.fixtures';

jest.setTimeout(120_000);

/** Well under the gateway's upstream timeout (10 s): the shopper gets our message, not the gateway's. */
const BOUND_MS = 6_000;

describe('identity when a dependency goes away', () => {
  let svc: TestService;
  const proxies: Record<'mongodb' | 'redis' | 'rabbitmq', TcpProxy> = {} as never;

  beforeAll(async () => {
    const mongo = await TcpProxy.inFrontOf(process.env.TEST_MONGO_URL ?? 'mongodb://127.0.0.1:27018', 27017);
    const redis = await TcpProxy.inFrontOf(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 6379);
    const rabbit = await TcpProxy.inFrontOf(process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672', 5672);
    Object.assign(proxies, { mongodb: mongo.proxy, redis: redis.proxy, rabbitmq: rabbit.proxy });
    const suffix = Math.random().toString(36).slice(2, 8);
    svc = await startTestService('identity', AppModule, {
      env: {
        MONGO_URI: `${mongo.url}/test_identity_faults_${suffix}`,
        REDIS_URL: redis.url,
        RABBITMQ_URL: rabbit.url,
      },
    });
  }, 60_000);
  afterAll(async () => {
    for (const p of Object.values(proxies)) await p.open();
    await svc?.close();
    for (const p of Object.values(proxies)) await p.stop();
  });

  async function timed(call: () => ReturnType<typeof request>) {
    const started = Date.now();
    const res = await call();
    return {
      status: res.status,
      body: res.body as { message?: string; statusCode?: number },
      ms: Date.now() - started,
    };
  }
  const register = () =>
    timed(() =>
      request(`${svc.url}/api/users/register`, {
        body: { name: 'Fault Tolerant', email: uniqueEmail('fault'), password: PASSWORD },
      }),
    );
  const login = (email: string) =>
    timed(() => request(`${svc.url}/api/users/login`, { body: { email, password: PASSWORD } }));
  const profile = (token: string) => timed(() => request(`${svc.url}/api/users/profile`, { token }));
  const ready = () => timed(() => request(`${svc.url}/ready`));

  async function customer() {
    const email = uniqueEmail('fault');
    const res = await request(`${svc.url}/api/users/register`, {
      body: { name: 'Fault Tolerant', email, password: PASSWORD },
    });
    expect(res.status).toBe(201);
    return { email, token: res.body.token as string };
  }

  /** A 503 with the API's error shape, in time. */
  function expectUnavailable(res: { status: number; body: { message?: unknown; statusCode?: unknown }; ms: number }) {
    expect({ status: res.status, statusCode: res.body.statusCode, message: typeof res.body.message }).toEqual({
      status: 503,
      statusCode: 503,
      message: 'string',
    });
    expect(res.ms).toBeLessThan(BOUND_MS);
  }

  async function recovers(check: () => Promise<boolean>, what: string) {
    const deadline = Date.now() + 30_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`did not recover: ${what}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  afterEach(async () => {
    for (const p of Object.values(proxies)) await p.open();
  });

  describe.each(['close', 'blackhole'] as const)('with the dependency %sd', (mode) => {
    it('MongoDB: register and login answer 503 in time, /ready names it; all back once it returns', async () => {
      const { email, token } = await customer();
      await proxies.mongodb[mode]();
      expectUnavailable(await register());
      expectUnavailable(await login(email));
      expectUnavailable(await profile(token));
      const r = await ready();
      expect(r.status).toBe(503);
      expect(r.body.message).toMatch(/mongodb/);
      expect(r.ms).toBeLessThan(BOUND_MS);
      await proxies.mongodb.open();
      await recovers(async () => (await login(email)).status === 200, 'login after MongoDB returned');
      expect((await profile(token)).status).toBe(200);
      expect((await ready()).status).toBe(200);
    });

    it('Redis: login still works, a protected route fails closed with 503 in time; all back once it returns', async () => {
      const { email, token } = await customer();
      await proxies.redis[mode]();
      const loggedIn = await login(email);
      expect(loggedIn.status).toBe(200);
      expect(loggedIn.ms).toBeLessThan(BOUND_MS);
      expectUnavailable(await profile(token));
      expect((await ready()).status).toBe(503);
      await proxies.redis.open();
      await recovers(async () => (await profile(token)).status === 200, 'profile after Redis returned');
      expect((await ready()).status).toBe(200);
    });

    it('RabbitMQ: register, login and the profile keep working; /ready names it; back once it returns', async () => {
      const { email, token } = await customer();
      await proxies.rabbitmq[mode]();
      const registered = await register();
      expect(registered.status).toBe(201);
      expect(registered.ms).toBeLessThan(BOUND_MS);
      expect((await login(email)).status).toBe(200);
      expect((await profile(token)).status).toBe(200);
      // A refused connection shows at once; a hung broker after the missed heartbeats (5 s each).
      await recovers(async () => (await ready()).status === 503, '/ready reporting RabbitMQ');
      expect((await ready()).body.message).toMatch(/rabbitmq/);
      await proxies.rabbitmq.open();
      await recovers(async () => (await ready()).status === 200, '/ready after RabbitMQ returned');
    });
  });
});
