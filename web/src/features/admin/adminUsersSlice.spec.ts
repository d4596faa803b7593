import { makeStore } from '@/app/store';
import { aUser, fakeApi } from '@/test/utils';
import { addUser, deleteUser, fetchUsers, selectAdminUsers, updateUser } from './adminUsersSlice';

const admin = aUser({ _id: '65a0000000000000000000a1', name: 'Ada Admin', email: 'admin@example.com', role: 'admin' });
const fan = aUser({ _id: '65a0000000000000000000a2', name: 'Jane Fan' });

async function storeWithUsers() {
  fakeApi({ 'GET /api/admin/users': { body: [admin, fan] } });
  const store = makeStore();
  await store.dispatch(fetchUsers());
  return store;
}

describe('admin users slice', () => {
  it('lists the users', async () => {
    const store = await storeWithUsers();
    expect(selectAdminUsers(store.getState()).list).toMatchObject({ status: 'succeeded', data: [admin, fan] });
    // without page the total is the rows
    expect(selectAdminUsers(store.getState())).toMatchObject({ total: 2, shown: { page: 1, limit: 25 } });
  });

  it('asks for a page with its parameters and keeps the total of X-Total-Count and the page it shows', async () => {
    const calls = fakeApi({ 'GET /api/admin/users': { body: [fan], headers: { 'X-Total-Count': '31' } } });
    const store = makeStore();
    await store.dispatch(fetchUsers({ page: '4', limit: '10', q: 'fan', sort: '-email' }));
    expect(calls[0].params).toEqual({ page: '4', limit: '10', q: 'fan', sort: '-email' });
    expect(selectAdminUsers(store.getState())).toMatchObject({
      list: { status: 'succeeded', data: [fan] },
      total: 31,
      shown: { page: 4, limit: 10 },
    });
    // a deletion on the page takes one off the total
    fakeApi({ [`DELETE /api/admin/users/${fan._id}`]: { body: { message: 'User deleted successfully' } } });
    await store.dispatch(deleteUser(fan._id));
    expect(selectAdminUsers(store.getState()).total).toBe(30);
  });

  it('adds a user (read from the answer’s user) at the top of the list', async () => {
    const store = await storeWithUsers();
    const made = aUser({ _id: '65a0000000000000000000a3', name: 'New Fan', email: 'new@example.com' });
    const calls = fakeApi({ 'POST /api/admin/users': { status: 201, body: { message: 'User created', user: made } } });
    await store.dispatch(
      addUser({ name: 'New Fan', email: 'new@example.com', password: 'Touchdown!1', role: 'customer' }),
    );
    expect(calls[0].data).toEqual({
      name: 'New Fan',
      email: 'new@example.com',
      password: 'Touchdown!1',
      role: 'customer',
    });
    expect(selectAdminUsers(store.getState()).list.data).toEqual([made, admin, fan]);
  });

  it('changes a role, replacing the user with the one the server answers', async () => {
    const store = await storeWithUsers();
    const promoted = { ...fan, role: 'admin' as const };
    const calls = fakeApi({
      [`PUT /api/admin/users/${fan._id}`]: { body: { message: 'User updated', user: promoted } },
    });
    const pending = store.dispatch(updateUser({ id: fan._id, changes: { role: 'admin' } }));
    expect(selectAdminUsers(store.getState()).busy).toEqual([fan._id]);
    await pending;
    expect(calls[0].data).toEqual({ role: 'admin' });
    expect(selectAdminUsers(store.getState())).toMatchObject({ list: { data: [admin, promoted] }, busy: [] });
  });

  it("keeps the user as they were and answers the server's message when a change is refused", async () => {
    const store = await storeWithUsers();
    fakeApi({
      [`PUT /api/admin/users/${admin._id}`]: {
        status: 400,
        body: { message: 'You cannot remove your own admin role', statusCode: 400 },
      },
    });
    const result = await store.dispatch(updateUser({ id: admin._id, changes: { role: 'customer' } }));
    expect(result.payload).toBe('You cannot remove your own admin role');
    expect(selectAdminUsers(store.getState())).toMatchObject({ list: { data: [admin, fan] }, busy: [] });
  });

  it('deletes a user', async () => {
    const store = await storeWithUsers();
    fakeApi({ [`DELETE /api/admin/users/${fan._id}`]: { body: { message: 'User deleted successfully' } } });
    await store.dispatch(deleteUser(fan._id));
    expect(selectAdminUsers(store.getState()).list.data).toEqual([admin]);
  });

  it("a failed list keeps the server's message", async () => {
    fakeApi({
      'GET /api/admin/users': { status: 401, body: { message: 'Not authorized, token failed', statusCode: 401 } },
    });
    const store = makeStore();
    await store.dispatch(fetchUsers());
    expect(selectAdminUsers(store.getState()).list).toMatchObject({
      status: 'failed',
      error: 'Not authorized, token failed',
    });
  });
});
