// Checkout with each of its dependencies refused or hung, then restored (issue 12), through TCP proxies this suite
// controls. Catalog and orders run beside it on the real servers. What does not need the dependency keeps working;
// what does answers a JSON 503 well within the gateway's 10 s and writes nothing; /ready says which; all recover.
import { startFakePayPal, type FakePayPal } from '@shop/fake-paypal';
import {
  NOT_READY,
  UNAVAILABLE,
  outcome,
  readiness,
  recovers,
  request,
  startTestService,
  startWithFaultProxies,
  timed,
  uniqueSuffix,
  waitFor,
  type FaultyService,
  type TestService,
  type Timed,
} from '@shop/nest-common/testing';
import { AppModule as CatalogAppModule } from '../../catalog/src/app.module';
import { AppModule } from '../src/app.module';
import { addProduct, address, line, newUserId, stockOf, type Shop } from './checkout.fixtures';

jest.setTimeout(120_000);

type Body = { message?: string; statusCode?: number; _id?: string };

describe('checkout when a dependency goes away', () => {
  let paypal: FakePayPal;
  let catalog: TestService;
  let faulty: FaultyService;
  let token: string;
  let productId: string;
  let existing: string;

  beforeAll(async () => {
    const namespace = `t${uniqueSuffix()}.`;
    paypal = await startFakePayPal();
    catalog = await startTestService('catalog', CatalogAppModule, { namespace });
    faulty = await startWithFaultProxies('checkout', AppModule, {
      namespace,
      env: {
        // A new checkout's first call is the stock reservation, which waits RESERVE_TIMEOUT_MS (8 s by default: inside
        // the gateway's 10 s) rather than the 5 s of other requests; shortened here to fit the suites' bound.
        RESERVE_TIMEOUT_MS: '4000',
        PAYPAL_API_BASE: paypal.url,
        PAYPAL_CLIENT_ID: paypal.clientId,
        PAYPAL_CLIENT_SECRET: paypal.clientSecret,
      },
    });
    token = faulty.svc.token({ id: newUserId(), name: 'Faulty Buyer' });
    // addProduct/stockOf need only the catalog of a Shop.
    productId = await addProduct({ catalog } as Shop, { countInStock: 10 });
    existing = (await create()).body._id!;
  }, 90_000);
  afterEach(() => faulty.restore());
  afterAll(async () => {
    await faulty?.close();
    await catalog?.close();
    await paypal?.close();
  });

  const call = (url: string, init: Parameters<typeof request>[1] = {}): Promise<Timed<Body>> =>
    timed(() => request<Body>(url, init));
  const create = () =>
    call(`${faulty.svc.url}/api/checkout`, {
      body: { checkoutItems: [line(productId)], shippingAddress: address() },
      token,
    });
  const read = () => call(`${faulty.svc.url}/api/checkout/${existing}`, { token });
  const config = () => call(`${faulty.svc.url}/api/config`);
  const ready = () => call(`${faulty.svc.url}/ready`);
  const stock = () => stockOf({ catalog } as Shop, productId);

  const expectUnavailable = (res: Timed<Body>) => expect(outcome(res)).toEqual(UNAVAILABLE);

  describe.each(['close', 'blackhole'] as const)('with the dependency %sd', (mode) => {
    it('MongoDB: reads and new checkouts answer 503 in time, holding no stock; /ready names it; all recover', async () => {
      const before = await stock();
      await faulty.proxies.mongodb[mode]();
      expectUnavailable(await read());
      expectUnavailable(await create());
      expect((await config()).status).toBe(200);
      expect(readiness(await ready(), 'mongodb')).toEqual(NOT_READY);
      // The stock the failed checkout held was given back.
      await waitFor('the failed checkout’s hold released', async () => (await stock()) === before);
      await faulty.proxies.mongodb.open();
      await recovers('a read after MongoDB returned', async () => (await read()).status === 200);
      expect((await create()).status).toBe(201);
    });

    it('Redis: signed-in routes fail closed with 503 in time, /api/config still answers; all recover', async () => {
      await faulty.proxies.redis[mode]();
      expectUnavailable(await read());
      expectUnavailable(await create());
      expect((await config()).status).toBe(200);
      await faulty.proxies.redis.open();
      await recovers('a read after Redis returned', async () => (await read()).status === 200);
    });

    it('RabbitMQ: a checkout can be read, a new one answers 503 in time; /ready names it; all recover', async () => {
      const before = await stock();
      await faulty.proxies.rabbitmq[mode]();
      expect((await read()).status).toBe(200);
      expectUnavailable(await create());
      expect(await stock()).toBe(before);
      await recovers('/ready reporting RabbitMQ', async () => (await ready()).status === 503);
      await faulty.proxies.rabbitmq.open();
      await recovers('a new checkout after RabbitMQ returned', async () => (await create()).status === 201);
    });
  });
});
