import { makeStore } from '@/app/store';
import { aProduct, fakeApi, holdApi } from '@/test/utils';
import { fetchProductDetails, fetchProductsByFilters } from './catalogSlice';

describe('catalog slice', () => {
  it('keeps the server message of a failed list (a known defect of the original, fixed)', async () => {
    fakeApi({ 'GET /api/products': { status: 400, body: { message: 'minPrice must be a number', statusCode: 400 } } });
    const store = makeStore();
    await store.dispatch(fetchProductsByFilters({ minPrice: Number.NaN }));
    expect(store.getState().catalog.list).toMatchObject({ status: 'failed', error: 'minPrice must be a number' });
  });

  it('falls back to the transport message when the server sent none', async () => {
    fakeApi({ 'GET /api/products/abc': { status: 502, body: '<html>bad gateway</html>' } });
    const store = makeStore();
    await store.dispatch(fetchProductDetails('abc'));
    expect(store.getState().catalog.product.error).toBe('Request failed with status code 502');
  });

  it('stores the list and sends the filters as query parameters', async () => {
    const calls = fakeApi({ 'GET /api/products': { body: [aProduct()] } });
    const store = makeStore();
    await store.dispatch(fetchProductsByFilters({ collection: 'Game Day', size: 'M,L', maxPrice: 100 }));
    expect(calls[0].params).toEqual({ collection: 'Game Day', size: 'M,L', maxPrice: 100 });
    expect(store.getState().catalog.list).toMatchObject({ status: 'succeeded', data: [aProduct()] });
  });

  it('ignores an older request that answers after a newer one', async () => {
    fakeApi({
      'GET /api/products': (call) => ({ body: [aProduct({ name: String(call.params?.search) })] }),
    });
    const release = holdApi((config) => config.params?.search === 'old');
    const store = makeStore();
    const old = store.dispatch(fetchProductsByFilters({ search: 'old' }));
    await store.dispatch(fetchProductsByFilters({ search: 'new' }));
    release();
    await old;
    expect(store.getState().catalog.list.data.map((p) => p.name)).toEqual(['new']);
  });
});
