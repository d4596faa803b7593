// Identity with each dependency made unavailable and restored (issue 12), through TCP proxies this suite controls:
// refused connections (a stopped server) and black holes (a hung server, a dropped network). What does not need
// the dependency keeps working; what does answers a JSON 503 well within the gateway's 10 s; /ready says which;
// and everything works again once it is back, without a restart.
import { request, startWithFaultProxies, waitFor, type FaultyService } from '@shop/nest-common/testing';
import { AppModule } from '../src/app.module';
import { PASSWORD, uniqueEmail } from './identity.fixtures';

jest.setTimeout(120_000);

/** Well under the gateway's upstream timeout (10 s): the shopper gets our message, not the gateway's. */
const BOUND_MS = 6_000;

describe('identity when a dependency goes away', () => {
  let faulty: FaultyService;
  let svc: FaultyService['svc'];
  let proxies: FaultyService['proxies'];

  beforeAll(async () => {
    faulty = await startWithFaultProxies('identity', AppModule);
    ({ svc, proxies } = faulty);
  }, 60_000);
  afterEach(() => faulty.restore());
  afterAll(() => faulty?.close());

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

  const recovers = (check: () => Promise<boolean>, what: string) => waitFor(what, check, 30_000);

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
