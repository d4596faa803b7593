import {
  AUTH_MESSAGES,
  EVENTS,
  PATTERNS,
  type EventEnvelope,
  type PublicUser,
  type UserRoleChangedEvent,
} from '@shop/contracts';
import { EventBus, namespacedExchange, RpcClient } from '@shop/nest-common';
import { deleteConsumerTopology, request, waitFor, type TestService } from '@shop/nest-common/testing';
import { UsersService } from '../src/users/users.service';
import { createAdmin, PASSWORD, registerCustomer, startIdentity, uniqueEmail } from './identity.fixtures';

describe('identity: admin user management', () => {
  let svc: TestService;
  let admin: { id: string; email: string; token: string };
  const users = () => `${svc.url}/api/admin/users`;

  beforeAll(async () => {
    svc = await startIdentity();
    admin = await createAdmin(svc);
  });
  afterAll(() => svc.close());

  it('answers 401 without a token and 403 for a customer on every admin route', async () => {
    const customer = await registerCustomer(svc);
    const calls = [
      { method: 'GET', url: users() },
      { method: 'GET', url: `${users()}?page=1&q=pat&role=customer&sort=-name` },
      { method: 'POST', url: users(), body: { name: 'X', email: uniqueEmail(), password: PASSWORD } },
      { method: 'PUT', url: `${users()}/${customer.id}`, body: { role: 'admin' } },
      { method: 'DELETE', url: `${users()}/${customer.id}` },
    ];
    for (const call of calls) {
      expect((await request(call.url, { method: call.method, body: call.body })).body).toEqual({
        statusCode: 401,
        message: AUTH_MESSAGES.noToken,
      });
      expect((await request(call.url, { method: call.method, body: call.body, token: customer.token })).body).toEqual({
        statusCode: 403,
        message: AUTH_MESSAGES.notAdmin,
      });
    }
    // Nothing changed behind the refusals.
    expect((await request(`${svc.url}/api/users/profile`, { token: customer.token })).body.role).toBe('customer');
  });

  it('lists users without password hashes', async () => {
    const res = await request<PublicUser[]>(users(), { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.map((u) => u.email)).toContain(admin.email);
    expect(JSON.stringify(res.body)).not.toMatch(/password/i);
  });

  it('adds a user, as a customer unless a role is given', async () => {
    const email = uniqueEmail('added');
    const res = await request(users(), { token: admin.token, body: { name: 'Added User', email, password: PASSWORD } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      message: 'User created successfully',
      user: expect.objectContaining({ name: 'Added User', email, role: 'customer' }),
    });
    const asAdmin = await request(users(), {
      token: admin.token,
      body: { name: 'Second Admin', email: uniqueEmail(), password: PASSWORD, role: 'admin' },
    });
    expect(asAdmin.body.user.role).toBe('admin');
    const login = await request(`${svc.url}/api/users/login`, { body: { email, password: PASSWORD } });
    expect(login.status).toBe(200);
  });

  it('refuses a duplicate, an unknown role and missing fields', async () => {
    expect(
      (await request(users(), { token: admin.token, body: { name: 'Dup', email: admin.email, password: PASSWORD } }))
        .body,
    ).toEqual({
      statusCode: 400,
      message: 'User already exists',
    });
    const badRole = await request(users(), {
      token: admin.token,
      body: { name: 'R', email: uniqueEmail(), password: PASSWORD, role: 'superuser' },
    });
    expect(badRole.status).toBe(400);
    expect(badRole.body.message).toBe('Role must be one of: customer, admin');
    expect((await request(users(), { token: admin.token, body: { email: uniqueEmail() } })).body.message).toBe(
      'Name is required',
    );
  });

  it('changes name and email without voiding the user’s token', async () => {
    const customer = await registerCustomer(svc);
    const email = uniqueEmail('renamed');
    const res = await request(`${users()}/${customer.id}`, {
      method: 'PUT',
      token: admin.token,
      body: { name: 'Renamed', email },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: 'User updated successfully',
      user: expect.objectContaining({ _id: customer.id, name: 'Renamed', email, role: 'customer' }),
    });
    expect((await request(`${svc.url}/api/users/profile`, { token: customer.token })).status).toBe(200);
  });

  it('refuses to give a user an email another account has, and changes nothing', async () => {
    const a = await registerCustomer(svc, 'Keeps Name');
    const b = await registerCustomer(svc);
    const res = await request(`${users()}/${a.id}`, {
      method: 'PUT',
      token: admin.token,
      body: { name: 'Changed', email: b.email },
    });
    expect(res.body).toEqual({ statusCode: 400, message: 'User already exists' });
    const profile = await request(`${svc.url}/api/users/profile`, { token: a.token });
    expect(profile.body).toEqual(expect.objectContaining({ name: 'Keeps Name', email: a.email }));
  });

  it('voids a user’s tokens the moment their role changes, and announces it', async () => {
    const received: Array<EventEnvelope<UserRoleChangedEvent>> = [];
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const listener = new EventBus({
      url: svc.config.RABBITMQ_URL,
      service: 'listener',
      queuePrefix: svc.namespace,
      exchange: namespacedExchange(svc.namespace),
      logger: quiet,
    });
    await listener.start();
    await listener.subscribe({ [EVENTS.identity.userRoleChanged]: async (e) => void received.push(e) });
    try {
      const customer = await registerCustomer(svc);
      const res = await request(`${users()}/${customer.id}`, {
        method: 'PUT',
        token: admin.token,
        body: { role: 'admin' },
      });
      expect(res.status).toBe(200);
      expect(res.body.user.role).toBe('admin');
      // The very next request with the old token is refused.
      expect((await request(`${svc.url}/api/users/profile`, { token: customer.token })).body).toEqual({
        statusCode: 401,
        message: AUTH_MESSAGES.tokenFailed,
      });
      // A fresh login carries the new role and works on admin routes.
      const login = await request(`${svc.url}/api/users/login`, {
        body: { email: customer.email, password: PASSWORD },
      });
      expect(login.body.user.role).toBe('admin');
      expect((await request(users(), { token: login.body.token })).status).toBe(200);

      await waitFor('the role-changed event', () => received.some((e) => e.data.userId === customer.id));
      const event = received.find((e) => e.data.userId === customer.id);
      expect(event?.data).toEqual(
        expect.objectContaining({ role: 'admin', previousRole: 'customer', revokedBefore: expect.any(Number) }),
      );
    } finally {
      await listener.close();
      await deleteConsumerTopology(svc.config.RABBITMQ_URL, `${svc.namespace}listener.events`);
    }
  });

  it('never lets an admin demote or delete themselves', async () => {
    const demote = await request(`${users()}/${admin.id}`, {
      method: 'PUT',
      token: admin.token,
      body: { role: 'customer' },
    });
    expect(demote.body).toEqual({ statusCode: 400, message: 'You cannot demote yourself' });
    const remove = await request(`${users()}/${admin.id}`, { method: 'DELETE', token: admin.token });
    expect(remove.body).toEqual({ statusCode: 400, message: 'You cannot delete yourself' });
    expect((await request(`${svc.url}/api/users/profile`, { token: admin.token })).body.role).toBe('admin');
  });

  it('keeps at least one admin when two admins demote each other at once', async () => {
    const fresh = await startIdentity();
    try {
      const a = await createAdmin(fresh, 'Admin A');
      const b = await createAdmin(fresh, 'Admin B');
      const results = await Promise.all([
        request(`${fresh.url}/api/admin/users/${b.id}`, { method: 'PUT', token: a.token, body: { role: 'customer' } }),
        request(`${fresh.url}/api/admin/users/${a.id}`, { method: 'PUT', token: b.token, body: { role: 'customer' } }),
      ]);
      // One wins; the other finds the last admin (or its own token already voided by the winner).
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      const loser = results.find((r) => r.status !== 200);
      expect([400, 401]).toContain(loser?.status);
      const remaining = (await fresh.app.get(UsersService).list()).filter((u) => u.role === 'admin');
      expect(remaining).toHaveLength(1);
    } finally {
      await fresh.close();
    }
  });

  it('deletes a user and voids their tokens', async () => {
    const customer = await registerCustomer(svc);
    const res = await request(`${users()}/${customer.id}`, { method: 'DELETE', token: admin.token });
    expect(res.body).toEqual({ message: 'User deleted successfully' });
    expect((await request(`${svc.url}/api/users/profile`, { token: customer.token })).status).toBe(401);
    expect((await request(`${users()}/${customer.id}`, { method: 'DELETE', token: admin.token })).body).toEqual({
      statusCode: 404,
      message: 'User not found',
    });
  });

  it('answers 400 for a malformed id and 404 for an unknown one', async () => {
    expect(
      (await request(`${users()}/not-an-id`, { method: 'PUT', token: admin.token, body: { name: 'x' } })).body,
    ).toEqual({
      statusCode: 400,
      message: 'Invalid user id',
    });
    expect(
      (await request(`${users()}/64b7f9f9f9f9f9f9f9f9f9f9`, { method: 'PUT', token: admin.token, body: { name: 'x' } }))
        .body,
    ).toEqual({
      statusCode: 404,
      message: 'User not found',
    });
  });

  it('answers user lookups from other services over RabbitMQ', async () => {
    const customer = await registerCustomer(svc, 'Looked Up');
    const client = new RpcClient('identity', {
      url: svc.config.RABBITMQ_URL,
      namespace: svc.namespace,
      timeoutMs: 3000,
    });
    try {
      const found = await client.send<PublicUser | null>(PATTERNS.identity.findUser, { userId: customer.id });
      expect(found).toEqual(expect.objectContaining({ _id: customer.id, name: 'Looked Up', email: customer.email }));
      expect(JSON.stringify(found)).not.toMatch(/password/i);
      expect(await client.send(PATTERNS.identity.findUser, { userId: 'nope' })).toBeNull();
    } finally {
      await client.onApplicationShutdown();
    }
  });
});
