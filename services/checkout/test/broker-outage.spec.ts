// RabbitMQ really unavailable to orders when the buyer pays (a TCP proxy this suite controls, cut then restored):
// pay takes the money and answers the checkout paid, its order left to finalize; finalize answers a clear 503
// meanwhile, and once the broker is back there is exactly one order, the stock is committed once and the cart is
// emptied once.
import { getModelToken } from '@nestjs/mongoose';
import { startTestService, request, TcpProxy, waitFor, type TestService } from '@shop/nest-common/testing';
import type { Model } from 'mongoose';
import { AppModule as CartAppModule } from '../../cart/src/app.module';
import { addProduct, address, checkoutApi, line, newUserId, startShop, stockOf, type Shop } from './checkout.fixtures';

jest.setTimeout(60_000);

describe('checkout when the broker is away from orders as the buyer pays', () => {
  let proxy: TcpProxy;
  let shop: Shop;
  let cart: TestService;

  beforeAll(async () => {
    const rabbit = await TcpProxy.inFrontOf(process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672', 5672);
    proxy = rabbit.proxy;
    shop = await startShop({
      ordersEnv: { RABBITMQ_URL: rabbit.url, OUTBOX_RELAY_MS: '200' },
      checkoutEnv: { RPC_TIMEOUT_MS: '1500', FINALIZE_SWEEP_MS: '600000' },
    });
    cart = await startTestService('cart', CartAppModule, { namespace: shop.checkout.namespace });
  }, 90_000);
  afterAll(async () => {
    await proxy?.open();
    await cart?.close();
    await shop?.close();
    await proxy?.stop();
  });

  it('makes the order once, commits the stock once and empties the cart once, after the broker is back', async () => {
    const api = checkoutApi(shop);
    const userId = newUserId();
    const token = shop.checkout.token({ id: userId, name: 'Justin Tucker' });
    const productId = await addProduct(shop, { price: 30, countInStock: 5 });
    const added = await request(`${cart.url}/api/cart`, { method: 'POST', body: line(productId, 2), token });
    expect(added.status).toBe(201);

    const checkout = await api.create(
      { checkoutItems: added.body.products, shippingAddress: address(), paymentMethod: 'Paypal' },
      token,
    );
    expect(checkout.status).toBe(201);
    await proxy.close();
    const paid = await api.pay(checkout.body._id, shop.paypal.createCompletedOrder({ value: '60.00' }), token);
    expect(paid).toMatchObject({ status: 200, body: { isPaid: true } });
    const away = await api.finalize(checkout.body._id, token);
    expect(away.status).toBe(503);
    expect(away.body).toEqual({ message: 'Orders service is unavailable', statusCode: 503 });
    expect((await api.get(checkout.body._id, token)).body).toEqual(
      expect.objectContaining({ isPaid: true, isFinalized: false }),
    );

    await proxy.open();
    // The shopper retries until orders is back on the broker.
    let finalized = await api.finalize(checkout.body._id, token);
    const deadline = Date.now() + 30_000;
    while (finalized.status === 503 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      finalized = await api.finalize(checkout.body._id, token);
    }
    expect(finalized.status).toBe(201);
    const again = await api.finalize(checkout.body._id, token);
    expect({ status: again.status, id: again.body._id }).toEqual({ status: 200, id: finalized.body._id });

    const mine = await request(`${shop.orders.url}/api/orders/my-orders`, { token });
    expect(mine.body.map((o: { _id: string }) => o._id)).toEqual([finalized.body._id]);

    // The order's event reached catalog and cart once: sold units counted once, the cart emptied.
    const products = shop.catalog.app.get<Model<{ soldCount: number }>>(getModelToken('Product'));
    await waitFor('the sale committed', async () => (await products.findById(productId).lean())?.soldCount === 2);
    await waitFor('the cart emptied', async () => {
      const read = await request(`${cart.url}/api/cart`, { token });
      return read.body.products.length === 0;
    });
    await new Promise((r) => setTimeout(r, 1000)); // room for a duplicate to show, if there were one
    expect((await products.findById(productId).lean())?.soldCount).toBe(2);
    expect(await stockOf(shop, productId)).toBe(3);
  });
});
