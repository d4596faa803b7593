// Identity with each dependency made unavailable and restored (issue 12), through TCP proxies this suite controls:
// refused connections (a stopped server) and black holes (a hung server, a dropped network). What does not need
// the dependency keeps working; what does answers a JSON 503 well within the gateway's 10 s; /ready says which;
// and everything works again once it is back, without a restart.
import {
  NOT_READY,
  UNAVAILABLE,
  UNAVAILABLE_BOUND_MS,
  outcome,
  readiness,
  recovers,
  request,
  startWithFaultProxies,
  timed,
  type FaultyService,
  type Timed,
} from '@shop/nest-common/testing';
import { AppModule } from '../src/app.module';
import { PASSWORD, uniqueEmail } from './identity.fixtures';

jest.setTimeout(120_000);

type Body = { message?: string; statusCode?: number };

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

  const register = () =>
    timed(() =>
      request<Body>(`${svc.url}/api/users/register`, {
        body: { name: 'Fault Tolerant', email: uniqueEmail('fault'), password: PASSWORD },
      }),
    );
  const login = (email: string) =>
    timed(() => request<Body>(`${svc.url}/api/users/login`, { body: { email, password: PASSWORD } }));
  const profile = (token: string) => timed(() => request<Body>(`${svc.url}/api/users/profile`, { token }));
  const ready = () => timed(() => request<Body>(`${svc.url}/ready`));

  async function customer() {
    const email = uniqueEmail('fault');
    const res = await request(`${svc.url}/api/users/register`, {
      body: { name: 'Fault Tolerant', email, password: PASSWORD },
    });
    expect(res.status).toBe(201);
    return { email, token: res.body.token as string };
  }

  const expectUnavailable = (res: Timed<Body>) => expect(outcome(res)).toEqual(UNAVAILABLE);

  describe.each(['close', 'blackhole'] as const)('with the dependency %sd', (mode) => {
    it('MongoDB: register and login answer 503 in time, /ready names it; all back once it returns', async () => {
      const { email, token } = await customer();
      await proxies.mongodb[mode]();
      expectUnavailable(await register());
      expectUnavailable(await login(email));
      expectUnavailable(await profile(token));
      expect(readiness(await ready(), 'mongodb')).toEqual(NOT_READY);
      await proxies.mongodb.open();
      await recovers('login after MongoDB returned', async () => (await login(email)).status === 200);
      expect((await profile(token)).status).toBe(200);
      expect((await ready()).status).toBe(200);
    });

    it('Redis: login still works, a protected route fails closed with 503 in time; all back once it returns', async () => {
      const { email, token } = await customer();
      await proxies.redis[mode]();
      const loggedIn = await login(email);
      expect(loggedIn.status).toBe(200);
      expect(loggedIn.ms).toBeLessThan(UNAVAILABLE_BOUND_MS);
      expectUnavailable(await profile(token));
      expect((await ready()).status).toBe(503);
      await proxies.redis.open();
      await recovers('profile after Redis returned', async () => (await profile(token)).status === 200);
      expect((await ready()).status).toBe(200);
    });

    it('RabbitMQ: register, login and the profile keep working; /ready names it; back once it returns', async () => {
      const { email, token } = await customer();
      await proxies.rabbitmq[mode]();
      const registered = await register();
      expect(registered.status).toBe(201);
      expect(registered.ms).toBeLessThan(UNAVAILABLE_BOUND_MS);
      expect((await login(email)).status).toBe(200);
      expect((await profile(token)).status).toBe(200);
      // A refused connection shows at once; a hung broker after the missed heartbeats (5 s each).
      await recovers('/ready reporting RabbitMQ', async () => (await ready()).status === 503);
      expect((await ready()).body.message).toMatch(/rabbitmq/);
      await proxies.rabbitmq.open();
      await recovers('/ready after RabbitMQ returned', async () => (await ready()).status === 200);
    });
  });
});
