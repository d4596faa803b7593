// A customer's and an admin's journey through the gateway of the running shop (HTTP only).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { allKeys, api, e2eEnv, expectJsonError, login, uniqueEmail, type E2eEnv } from './support';

jest.setTimeout(60_000);

const SECRET_KEY = /password|hash|salt/i;

/** Sample routes per service, to prove a service that is not running answers 503 JSON. */
const SAMPLE_ROUTE: Record<string, string> = {
  catalog: '/api/products',
  cart: '/api/cart?guestId=guest_1',
  identity: '/api/users/profile',
  checkout: '/api/config',
  orders: '/api/orders/my-orders',
};

describe('API journey through the gateway', () => {
  let env: E2eEnv;
  const password = 'Journey!2345';
  const email = uniqueEmail('journey');
  let userId: string;
  let userToken: string;
  let adminToken: string;

  beforeAll(() => {
    env = e2eEnv();
  });

  it('answers /health and /ready', async () => {
    expect((await api(env.baseUrl, 'GET', '/health')).status).toBe(200);
    expect((await api(env.baseUrl, 'GET', '/ready')).status).toBe(200);
  });

  it('registers a customer: 201 {user, token}, email lower-cased, no password anywhere', async () => {
    const res = await api(env.baseUrl, 'POST', '/api/users/register', {
      json: { name: 'Journey Tester', email, password },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      user: expect.objectContaining({
        _id: expect.any(String),
        name: 'Journey Tester',
        email: email.toLowerCase(),
        role: 'customer',
      }),
      token: expect.any(String),
    });
    expect(allKeys(res.body).filter((k) => SECRET_KEY.test(k))).toEqual([]);
    expect(res.text).not.toContain(password);
    userId = res.body.user._id;
    userToken = res.body.token;
  });

  it('refuses a second registration with the same email', async () => {
    const res = await api(env.baseUrl, 'POST', '/api/users/register', {
      json: { name: 'Again', email: email.toLowerCase(), password },
    });
    expectJsonError(res, 400);
  });

  it('logs in: 200 {user, token}', async () => {
    const res = await api(env.baseUrl, 'POST', '/api/users/login', { json: { email, password } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user: expect.objectContaining({ _id: userId, email: email.toLowerCase(), role: 'customer' }),
      token: expect.any(String),
    });
    expect(allKeys(res.body).filter((k) => SECRET_KEY.test(k))).toEqual([]);
  });

  it('refuses a wrong password with 401 and a JSON message', async () => {
    const res = await api(env.baseUrl, 'POST', '/api/users/login', { json: { email, password: 'wrong-password' } });
    expectJsonError(res, 401);
  });

  it('shows the profile to its owner', async () => {
    const res = await api(env.baseUrl, 'GET', '/api/users/profile', { token: userToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      expect.objectContaining({ _id: userId, name: 'Journey Tester', email: email.toLowerCase(), role: 'customer' }),
    );
    expect(allKeys(res.body).filter((k) => SECRET_KEY.test(k))).toEqual([]);
  });

  it('guards the admin user list: 401 without a token, 403 for a customer, 200 for the seeded admin', async () => {
    expectJsonError(await api(env.baseUrl, 'GET', '/api/admin/users'), 401);

    const customer = login(env, 'customer');
    const asCustomer = await api(env.baseUrl, 'POST', '/api/users/login', {
      json: { email: customer.email, password: customer.password },
    });
    expect(asCustomer.status).toBe(200);
    expectJsonError(await api(env.baseUrl, 'GET', '/api/admin/users', { token: asCustomer.body.token }), 403);

    const admin = login(env, 'admin');
    const asAdmin = await api(env.baseUrl, 'POST', '/api/users/login', {
      json: { email: admin.email, password: admin.password },
    });
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.user.role).toBe('admin');
    adminToken = asAdmin.body.token;

    const users = await api(env.baseUrl, 'GET', '/api/admin/users', { token: adminToken });
    expect(users.status).toBe(200);
    expect(Array.isArray(users.body)).toBe(true);
    expect(users.body.map((u: { email: string }) => u.email)).toEqual(
      expect.arrayContaining([admin.email, customer.email, email.toLowerCase()]),
    );
    expect(allKeys(users.body).filter((k) => SECRET_KEY.test(k))).toEqual([]);
  });

  it("voids the user's old token at once when an admin changes their role", async () => {
    const res = await api(env.baseUrl, 'PUT', `/api/admin/users/${userId}`, {
      token: adminToken,
      json: { role: 'admin' },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toEqual(expect.objectContaining({ _id: userId, role: 'admin' }));

    expectJsonError(await api(env.baseUrl, 'GET', '/api/users/profile', { token: userToken }), 401);

    // Logging in again gives a working token with the new role. (JWT times are whole seconds: a login in
    // the same second as the revocation may be treated as issued before it, so wait past that second.)
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const again = await api(env.baseUrl, 'POST', '/api/users/login', { json: { email, password } });
    expect(again.status).toBe(200);
    expect(again.body.user.role).toBe('admin');
    const profile = await api(env.baseUrl, 'GET', '/api/users/profile', { token: again.body.token });
    expect(profile.status).toBe(200);
    expect(profile.body.role).toBe('admin');
  });

  it('rejects a query operator smuggled into the login body with 400 and a string message', async () => {
    const res = await api(env.baseUrl, 'POST', '/api/users/login', {
      json: { email: { $gt: '' }, password: 'anything' },
    });
    expectJsonError(res, 400);
  });

  it('answers malformed JSON with 400 JSON', async () => {
    const res = await api(env.baseUrl, 'POST', '/api/users/login', { raw: '{"email": "a@b.c", "password": ' });
    expectJsonError(res, 400);
  });

  it('answers an unknown /api route with 404 JSON', async () => {
    expectJsonError(await api(env.baseUrl, 'GET', '/api/no-such-thing'), 404);
    expectJsonError(await api(env.baseUrl, 'GET', '/api/users/no-such-thing'), 404);
  });

  it('answers 503 JSON with a message for a service that is not running', async () => {
    // A gateway whose upstreams all point at a closed port: every service is "down".
    for (const [service, route] of Object.entries(SAMPLE_ROUTE)) {
      const res = await api(env.deadGatewayUrl, 'GET', route);
      expect({ service, status: res.status }).toEqual({ service, status: 503 });
      expectJsonError(res, 503);
    }
    // And through the real gateway, for each service not running in this checkout (e.g. cart before it exists).
    for (const service of Object.keys(SAMPLE_ROUTE).filter((s) => !env.running.includes(s))) {
      const res = await api(env.baseUrl, 'GET', SAMPLE_ROUTE[service]);
      expect({ service, status: res.status }).toEqual({ service, status: 503 });
      expectJsonError(res, 503);
    }
  });

  it('carries the request id from the gateway to the service: echoed, and on the service log line', async () => {
    const requestId = `e2e-trace-${Date.now()}`;
    const fresh = await api(env.baseUrl, 'POST', '/api/users/register', {
      json: { name: 'Tracer', email: uniqueEmail('trace'), password },
    });
    const res = await api(env.baseUrl, 'GET', '/api/users/profile', {
      token: fresh.body.token,
      headers: { 'x-request-id': requestId },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe(requestId);
    const logFile = path.join(env.logDir, 'identity.log');
    let line: Record<string, unknown> | undefined;
    for (let i = 0; i < 20 && !line; i++) {
      line = fs
        .readFileSync(logFile, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l.requestId === requestId && l.msg === 'request');
      if (!line) await new Promise((r) => setTimeout(r, 100));
    }
    expect(line).toEqual(
      expect.objectContaining({ service: 'identity', method: 'GET', path: '/api/users/profile', status: 200 }),
    );
  });
});
