// Cart with each of its dependencies refused or hung, then restored (issue 12), through TCP proxies this suite
// controls; catalog runs beside it on the real servers. Guests' carts live in Redis, users' in MongoDB, prices
// come from catalog over RabbitMQ (kept per replica), order events arrive over RabbitMQ. What does not need the
// dependency keeps working; what does answers a JSON 503 well within the gateway's 10 s and writes nothing; /ready
// says which; everything recovers without a restart, and no cart write acknowledged before the fault is lost.
import { EVENTS, type OrderPlacedEvent } from '@shop/contracts';
import { EventBus, namespacedExchange } from '@shop/nest-common';
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
  type FaultyService,
  type TestService,
  type Timed,
} from '@shop/nest-common/testing';
import { AppModule as CatalogAppModule } from '../../catalog/src/app.module';
import { AppModule } from '../src/app.module';
import { addProduct, newGuestId, newUserId, type Shop } from './cart.fixtures';

jest.setTimeout(120_000);

type Body = { message?: string; statusCode?: number; products?: Array<{ productId: string; quantity: number }> };

describe('cart when a dependency goes away', () => {
  let catalog: TestService;
  let faulty: FaultyService;
  let bus: EventBus;
  /** Products the cart has priced once (its copy is warm), and one it has never seen. */
  let known: string;
  let other: string;

  beforeAll(async () => {
    const namespace = `t${uniqueSuffix()}.`;
    catalog = await startTestService('catalog', CatalogAppModule, { namespace });
    faulty = await startWithFaultProxies('cart', AppModule, { namespace, env: { PRODUCT_CACHE_TTL_MS: '600000' } });
    // Orders' events, published straight to the real broker as orders would.
    bus = new EventBus({
      url: catalog.config.RABBITMQ_URL,
      service: 'test',
      exchange: namespacedExchange(namespace),
      logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    await bus.start();
    const shop = { catalog } as Shop;
    known = await addProduct(shop, { price: 20 });
    other = await addProduct(shop, { price: 5 });
    expect((await add({ guestId: newGuestId() }, known)).status).toBe(201);
  }, 90_000);
  afterEach(() => faulty.restore());
  afterAll(async () => {
    await bus?.close();
    await faulty?.close();
    await catalog?.close();
  });

  /** A shopper: a guest (id in the body or query) or a signed-in user (token). */
  type Who = { guestId: string } | { userId: string; token: string };
  const guest = (): Who => ({ guestId: newGuestId() });
  const user = (): Who => {
    const userId = newUserId();
    return { userId, token: faulty.svc.token({ id: userId }) };
  };

  const call = (path: string, init: Parameters<typeof request>[1] = {}): Promise<Timed<Body>> =>
    timed(() => request<Body>(`${faulty.svc.url}${path}`, init));
  function add(who: Who, productId: string, quantity = 1) {
    const body = { productId, quantity, size: 'M', color: 'Green' };
    return 'guestId' in who
      ? call('/api/cart', { body: { ...body, guestId: who.guestId } })
      : call('/api/cart', { body, token: who.token });
  }
  const read = (who: Who) =>
    'guestId' in who ? call(`/api/cart?guestId=${who.guestId}`) : call('/api/cart', { token: who.token });
  const ready = () => call('/ready');
  /** The cart's lines as productId → quantity (undefined while it cannot be read). */
  async function linesIfUp(who: Who): Promise<Record<string, number> | undefined> {
    const res = await read(who);
    return res.status === 200
      ? Object.fromEntries((res.body.products ?? []).map((l) => [l.productId, l.quantity]))
      : undefined;
  }
  async function lines(who: Who): Promise<Record<string, number>> {
    const found = await linesIfUp(who);
    expect(found).toBeDefined();
    return found!;
  }
  function placed(who: Who, productId: string, quantity: number): Promise<unknown> {
    if (!('userId' in who)) throw new Error('orders are placed by users');
    const order: OrderPlacedEvent = {
      orderId: newUserId(),
      checkoutId: newUserId(),
      userId: who.userId,
      items: [{ productId, quantity, size: 'M', color: 'Green' }],
    };
    return bus.publish(EVENTS.orders.orderPlaced, order, { eventId: `orders.order.placed:${order.checkoutId}` });
  }

  const expectUnavailable = (res: Timed<Body>) => expect(outcome(res)).toEqual(UNAVAILABLE);
  const expectReadyNames = async (dependency: string) =>
    expect(readiness(await ready(), dependency)).toEqual(NOT_READY);

  describe.each(['close', 'blackhole'] as const)('with the dependency %sd', (mode) => {
    it('MongoDB: guests’ carts keep working, users’ answer 503 in time and lose nothing; all recover', async () => {
      const shopper = user();
      const visitor = guest();
      expect((await add(shopper, known, 2)).status).toBe(201);
      await faulty.proxies.mongodb[mode]();

      expect((await add(visitor, known)).status).toBe(201);
      expect((await read(visitor)).status).toBe(200);
      expectUnavailable(await read(shopper));
      expectUnavailable(await add(shopper, other));
      await expectReadyNames('mongodb');

      await faulty.proxies.mongodb.open();
      await recovers('a user’s cart after MongoDB returned', async () => (await read(shopper)).status === 200);
      // What was acknowledged before is there; the refused add left nothing behind.
      expect(await lines(shopper)).toEqual({ [known]: 2 });
      expect((await add(shopper, other)).status).toBe(200);
      expect(await lines(shopper)).toEqual({ [known]: 2, [other]: 1 });
      expect((await ready()).status).toBe(200);
    });

    it('Redis: every cart route fails closed with 503 in time, an order placed meanwhile still clears its lines; all recover', async () => {
      const shopper = user();
      const visitor = guest();
      expect((await add(shopper, known, 3)).status).toBe(201);
      expect((await add(visitor, known, 2)).status).toBe(201);
      await faulty.proxies.redis[mode]();

      expectUnavailable(await read(visitor));
      expectUnavailable(await add(visitor, other));
      // A token cannot be checked against its revocation record: refused, not trusted.
      expectUnavailable(await read(shopper));
      expectUnavailable(await add(shopper, other));
      await expectReadyNames('redis');
      expect((await call('/health')).status).toBe(200);
      // The order's event needs no Redis (a user's cart is changed by its version, not under a lock): never dropped.
      await placed(shopper, known, 1);

      await faulty.proxies.redis.open();
      await recovers('a guest’s cart after Redis returned', async () => (await read(visitor)).status === 200);
      expect(await lines(visitor)).toEqual({ [known]: 2 });
      await recovers('the order’s lines taken out', async () => (await linesIfUp(shopper))?.[known] === 2);
      expect((await add(visitor, other)).status).toBe(200);
      expect((await ready()).status).toBe(200);
    });

    it('RabbitMQ: carts of products already priced keep working, a new product answers 503 in time, an order placed meanwhile arrives; all recover', async () => {
      const shopper = user();
      const visitor = guest();
      expect((await add(shopper, known, 3)).status).toBe(201);
      await faulty.proxies.rabbitmq[mode]();

      // Priced from this replica's copy: no RabbitMQ round trip.
      expect((await add(visitor, known)).status).toBe(201);
      expect((await add(shopper, known)).status).toBe(200);
      expect(await lines(shopper)).toEqual({ [known]: 4 });
      // A product never priced needs the catalog: the cart is left as it was.
      const unseen = await addProduct({ catalog } as Shop, { price: 9 });
      expectUnavailable(await add(visitor, unseen));
      expect(await lines(visitor)).toEqual({ [known]: 1 });
      // Published while the cart cannot hear it: the durable queue keeps it.
      await placed(shopper, known, 4);
      // A refused connection shows at once; a hung broker after the missed heartbeats (5 s each).
      await recovers('/ready reporting RabbitMQ', async () => (await ready()).status === 503);
      expect((await ready()).body.message).toMatch(/rabbitmq/);

      await faulty.proxies.rabbitmq.open();
      await recovers('the order’s lines taken out', async () => {
        const now = await linesIfUp(shopper);
        return now !== undefined && Object.keys(now).length === 0;
      });
      await recovers('a new product added', async () => (await add(visitor, unseen)).status === 200);
      expect(await lines(visitor)).toEqual({ [known]: 1, [unseen]: 1 });
      await recovers('/ready after RabbitMQ returned', async () => (await ready()).status === 200);
    });
  });
});
