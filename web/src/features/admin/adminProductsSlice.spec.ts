import { makeStore } from '@/app/store';
import { logout } from '@/features/auth/authSlice';
import { aProduct, fakeApi } from '@/test/utils';
import {
  createProduct,
  deleteProduct,
  fetchAdminProduct,
  fetchAdminProducts,
  selectAdminProducts,
  updateProduct,
  uploadImage,
} from './adminProductsSlice';
import { formValues, parseList, productInput, variantsInput } from './productForm';

const first = aProduct({ _id: '65a000000000000000000001', name: 'Packers Home Jersey', price: 99.99 });
const second = aProduct({ _id: '65a000000000000000000002', name: 'Eagles Beanie', price: 19.99, sku: 'PHI-BEANIE' });

async function storeWithList() {
  fakeApi({ 'GET /api/admin/products': { body: [first, second] } });
  const store = makeStore();
  await store.dispatch(fetchAdminProducts());
  return store;
}

describe('admin products slice', () => {
  it('lists every product through the admin route', async () => {
    const store = await storeWithList();
    expect(selectAdminProducts(store.getState()).list).toMatchObject({ status: 'succeeded', data: [first, second] });
  });

  it('after an update the list shows the updated product (a known defect of the original, fixed)', async () => {
    const store = await storeWithList();
    const updated = { ...second, price: 24.5, name: 'Eagles Winter Beanie' };
    const calls = fakeApi({ [`PUT /api/admin/products/${second._id}`]: { body: updated } });
    await store.dispatch(updateProduct({ id: second._id, changes: { price: 24.5, name: 'Eagles Winter Beanie' } }));
    const state = selectAdminProducts(store.getState());
    expect(calls[0].data).toEqual({ price: 24.5, name: 'Eagles Winter Beanie' });
    expect(state.list.data).toEqual([first, updated]);
    expect(state.product.data).toEqual(updated);
    expect(state.saving).toBe(false);
  });

  it("keeps the server's message when an update fails, and the list as it was", async () => {
    const store = await storeWithList();
    fakeApi({
      [`PUT /api/admin/products/${second._id}`]: {
        status: 400,
        body: { message: 'Price must be greater than 0', statusCode: 400 },
      },
    });
    const result = await store.dispatch(updateProduct({ id: second._id, changes: { price: 0 } }));
    expect(result.payload).toBe('Price must be greater than 0');
    expect(selectAdminProducts(store.getState()).list.data).toEqual([first, second]);
  });

  it("a failed list keeps the server's message, not 'Rejected'", async () => {
    fakeApi({
      'GET /api/admin/products': { status: 403, body: { message: 'Not authorized as an admin', statusCode: 403 } },
    });
    const store = makeStore();
    await store.dispatch(fetchAdminProducts());
    expect(selectAdminProducts(store.getState()).list).toMatchObject({
      status: 'failed',
      error: 'Not authorized as an admin',
    });
  });

  it('the edit form never shows a previous product: loading another clears it', async () => {
    fakeApi({
      [`GET /api/admin/products/${first._id}`]: { body: first },
      [`GET /api/admin/products/${second._id}`]: {
        status: 404,
        body: { message: 'Product not found', statusCode: 404 },
      },
    });
    const store = makeStore();
    await store.dispatch(fetchAdminProduct(first._id));
    await store.dispatch(fetchAdminProduct(second._id));
    expect(selectAdminProducts(store.getState()).product).toMatchObject({
      status: 'failed',
      data: null,
      error: 'Product not found',
    });
  });

  it('a created product joins the top of the list; a deleted one leaves it', async () => {
    const store = await storeWithList();
    const made = aProduct({ _id: '65a000000000000000000003', name: 'Ravens Cap' });
    const calls = fakeApi({
      'POST /api/admin/products': { status: 201, body: made },
      [`DELETE /api/products/${first._id}`]: { body: { message: 'Product removed' } },
    });
    await store.dispatch(createProduct(productInput(formValues(made))));
    expect(selectAdminProducts(store.getState()).list.data.map((p) => p.name)).toEqual([
      'Ravens Cap',
      'Packers Home Jersey',
      'Eagles Beanie',
    ]);
    await store.dispatch(deleteProduct(first._id));
    expect(selectAdminProducts(store.getState()).list.data.map((p) => p.name)).toEqual(['Ravens Cap', 'Eagles Beanie']);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'POST /api/admin/products',
      `DELETE /api/products/${first._id}`,
    ]);
  });

  it('logout forgets everything the admin loaded', async () => {
    const store = await storeWithList();
    store.dispatch(logout());
    expect(selectAdminProducts(store.getState()).list.data).toEqual([]);
  });

  it('uploads an image as multipart in the "image" field and answers its URL', async () => {
    const calls = fakeApi({ 'POST /api/upload': { status: 201, body: { imageUrl: '/uploads/abc.webp' } } });
    const file = new File(['png-bytes'], 'cap.png', { type: 'image/png' });
    await expect(uploadImage(file)).resolves.toBe('/uploads/abc.webp');
    const body = calls[0].data as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect((body.get('image') as File).name).toBe('cap.png');
  });
});

describe('the product form values', () => {
  it('sizes are typed comma-separated and trimmed', () => {
    expect(parseList(' S, M ,,L , ')).toEqual(['S', 'M', 'L']);
    expect(parseList('')).toEqual([]);
  });

  it('sends numbers as numbers, an empty original price as null (removed) and leaves an empty SKU out', () => {
    const values = { ...formValues(first), price: '39.99', originalPrice: '', sku: '  ' };
    const input = productInput(values);
    expect(input).toMatchObject({ price: 39.99, originalPrice: null });
    expect(input).not.toHaveProperty('sku');
    expect(input).not.toHaveProperty('countInStock');
  });

  it('a new product starts published, Unisex, with no category chosen', () => {
    expect(formValues()).toMatchObject({ isPublished: true, gender: 'Unisex', category: '', stock: {} });
  });

  it('sends the stock as variants: one per size × colour of the grid, an empty cell at 0, an empty SKU left out', () => {
    const values = {
      ...formValues(first),
      sizes: ' M , L, M ',
      colors: ['Green'],
      stock: {
        'M|Green': { countInStock: '5', sku: ' GB-M-G ' },
        'L|Green': { countInStock: '', sku: '' },
        'S|Green': { countInStock: '9', sku: 'GB-S-G' }, // S is no longer offered: not sent
      },
    };
    expect(productInput(values).variants).toEqual([
      { size: 'M', color: 'Green', countInStock: 5, sku: 'GB-M-G' },
      { size: 'L', color: 'Green', countInStock: 0 },
    ]);
    // a product of one size and colour is one variant with neither
    expect(variantsInput({ sizes: '', colors: [], stock: { '|': { countInStock: '4', sku: '' } } })).toEqual([
      { size: null, color: null, countInStock: 4 },
    ]);
  });

  it("starts the grid from the product's variants", () => {
    expect(formValues(first).stock).toMatchObject({
      'S|Green': { countInStock: '4', sku: 'GB-JSY-HOME-M-S-GREEN' },
      'L|White': { countInStock: '3', sku: 'GB-JSY-HOME-M-L-WHITE' },
    });
  });
});
