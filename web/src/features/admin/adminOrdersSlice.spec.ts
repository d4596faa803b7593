import { makeStore } from '@/app/store';
import { anOrder, fakeApi, someStats } from '@/test/utils';
import { fetchAdminStats, fetchAllOrders, selectAdminOrders, updateOrderStatus } from './adminOrdersSlice';

const order = anOrder({ _id: '65b000000000000000000001' });
const other = anOrder({ _id: '65b000000000000000000002', totalPrice: 20 });

describe('admin orders slice', () => {
  it('loads all orders and the dashboard figures', async () => {
    fakeApi({
      'GET /api/admin/orders': { body: [order, other] },
      'GET /api/admin/stats': { body: someStats({ recentOrders: [order] }) },
    });
    const store = makeStore();
    await store.dispatch(fetchAllOrders());
    await store.dispatch(fetchAdminStats());
    const state = selectAdminOrders(store.getState());
    expect(state.list).toMatchObject({ status: 'succeeded', data: [order, other] });
    expect(state.stats).toMatchObject({ status: 'succeeded', data: { revenue: 1234.5, products: 42 } });
  });

  it('a status change replaces the order in the list and in the recent orders', async () => {
    fakeApi({
      'GET /api/admin/orders': { body: [order, other] },
      'GET /api/admin/stats': { body: someStats({ recentOrders: [order] }) },
    });
    const store = makeStore();
    await store.dispatch(fetchAllOrders());
    await store.dispatch(fetchAdminStats());
    const delivered = {
      ...order,
      status: 'Delivered' as const,
      isDelivered: true,
      deliveredAt: '2025-03-05T00:00:00Z',
    };
    const calls = fakeApi({ [`PUT /api/admin/orders/${order._id}`]: { body: delivered } });
    await store.dispatch(updateOrderStatus({ id: order._id, status: 'Delivered' }));
    expect(calls[0].data).toEqual({ status: 'Delivered' });
    const state = selectAdminOrders(store.getState());
    expect(state.list.data).toEqual([delivered, other]);
    expect(state.stats.data?.recentOrders).toEqual([delivered]);
    expect(state.busy).toEqual([]);
  });

  it("a refused change keeps the order and answers the server's message", async () => {
    fakeApi({ 'GET /api/admin/orders': { body: [order] } });
    const store = makeStore();
    await store.dispatch(fetchAllOrders());
    fakeApi({
      [`PUT /api/admin/orders/${order._id}`]: {
        status: 400,
        body: { message: 'A cancelled order cannot change status', statusCode: 400 },
      },
    });
    const result = await store.dispatch(updateOrderStatus({ id: order._id, status: 'Shipped' }));
    expect(result.payload).toBe('A cancelled order cannot change status');
    expect(selectAdminOrders(store.getState()).list.data).toEqual([order]);
  });

  it("a failed dashboard keeps the server's message", async () => {
    fakeApi({ 'GET /api/admin/stats': { status: 503, body: { message: 'Orders are unavailable', statusCode: 503 } } });
    const store = makeStore();
    await store.dispatch(fetchAdminStats());
    expect(selectAdminOrders(store.getState()).stats).toMatchObject({
      status: 'failed',
      error: 'Orders are unavailable',
    });
  });
});
