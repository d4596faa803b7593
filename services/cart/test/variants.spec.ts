// Stock is kept per size × colour (issue 22): a cart line may hold what its variant has, and shows its SKU and
// current stock, so the drawer can say when the stock fell below the quantity after the line was added.
import { getModelToken } from '@nestjs/mongoose';
import { CART_MESSAGES, EVENTS, type CartJson } from '@shop/contracts';
import { waitFor } from '@shop/nest-common/testing';
import { Types, type Model } from 'mongoose';
import { addProduct, cartApi, newGuestId, newUserId, startShop, type Shop } from './cart.fixtures';

describe('cart: stock per variant', () => {
  let shop: Shop;
  let api: ReturnType<typeof cartApi>;
  beforeAll(async () => {
    shop = await startShop();
    api = cartApi(shop);
  });
  afterAll(() => shop?.close());

  /** Sets one variant's stock behind the catalog's back, then announces it as a stock write would. */
  async function setStock(productId: string, size: string, color: string, countInStock: number) {
    const model = shop.catalog.app.get<Model<{ variants: Array<{ size: string; color: string }> }>>(
      getModelToken('Product'),
    );
    const doc = await model.findById(productId).lean();
    const i = doc!.variants.findIndex((v) => v.size === size && v.color === color);
    await model.collection.updateOne(
      { _id: new Types.ObjectId(productId) },
      { $set: { [`variants.${i}.countInStock`]: countInStock } },
    );
    await shop.bus.publish(EVENTS.catalog.productChanged, { productId });
  }

  it('refuses a line beyond its variant’s stock, whatever the product’s other variants hold', async () => {
    const id = await addProduct(shop, { countInStock: 4 });
    await setStock(id, 'M', 'Green', 2);
    await setStock(id, 'L', 'Green', 0);
    const guestId = newGuestId();
    const add = (size: string, quantity: number) => api.add({ productId: id, quantity, size, color: 'Green', guestId });
    await waitFor('the catalog’s change heard', async () => (await add('L', 1)).status === 409);
    expect((await add('L', 1)).body).toEqual({ statusCode: 409, message: CART_MESSAGES.onlyLeft(0) });
    expect((await add('M', 3)).body).toEqual({ statusCode: 409, message: 'Only 2 left in stock' });
    expect((await add('M', 2)).status).toBe(201);
    expect((await add('M', 1)).body).toEqual({ statusCode: 409, message: 'Only 2 left in stock' });
    expect((await add('S', 4)).status).toBe(200); // another variant: its own 4
    const update = await api.update({ productId: id, quantity: 3, size: 'M', color: 'Green', guestId });
    expect(update.body).toEqual({ statusCode: 409, message: 'Only 2 left in stock' });
  });

  it('shows each line’s variant SKU and current stock, below its quantity when the stock fell since', async () => {
    const id = await addProduct(shop, { countInStock: 5 });
    const guestId = newGuestId();
    await api.add({ productId: id, quantity: 3, size: 'S', color: 'White', guestId });
    await api.add({ productId: id, quantity: 1, size: 'L', color: 'Green', guestId });
    const sku = `SKU-${id}`.toUpperCase();
    expect((await api.get(`guestId=${guestId}`)).body.products).toEqual([
      expect.objectContaining({ size: 'S', color: 'White', quantity: 3, sku: `${sku}-S-WHITE`, countInStock: 5 }),
      expect.objectContaining({ size: 'L', color: 'Green', quantity: 1, sku: `${sku}-L-GREEN`, countInStock: 5 }),
    ]);
    await setStock(id, 'S', 'White', 1);
    await waitFor(
      'the lower stock shown',
      async () => ((await api.get(`guestId=${guestId}`)).body as CartJson).products[0].countInStock === 1,
    );
    // The line keeps its quantity (the shopper decides): the drawer offers to lower it.
    expect((await api.get(`guestId=${guestId}`)).body.products[0]).toEqual(
      expect.objectContaining({ quantity: 3, countInStock: 1 }),
    );
  });

  it('merges a guest cart into a user’s, each line capped by its own variant’s stock', async () => {
    const id = await addProduct(shop, { countInStock: 3 });
    const guestId = newGuestId();
    await api.add({ productId: id, quantity: 3, size: 'M', color: 'Green', guestId });
    await api.add({ productId: id, quantity: 3, size: 'L', color: 'White', guestId });
    const userId = newUserId();
    const token = shop.cart.token({ id: userId });
    await api.add({ productId: id, quantity: 2, size: 'M', color: 'Green' }, token);
    await setStock(id, 'L', 'White', 0);
    await waitFor('the sold-out variant seen', async () => {
      const cart = (await api.get(`guestId=${guestId}`)).body as CartJson;
      return cart.products.find((l) => l.size === 'L')?.countInStock === 0;
    });
    const merged = await api.merge({ guestId }, token);
    expect(merged.status).toBe(200);
    expect((merged.body as CartJson).products.map((l) => [l.size, l.color, l.quantity])).toEqual([['M', 'Green', 3]]);
  });
});
