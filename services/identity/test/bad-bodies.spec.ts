// Bodies that used to answer 500 or slip through (issue 12): broken text, nulls where a value is due, deep nesting.
// Each is refused with a 400 JSON message, and nothing is written.
import { request, type TestService } from '@shop/nest-common/testing';
import { createAdmin, PASSWORD, registerCustomer, startIdentity, uniqueEmail } from './identity.fixtures';

const BROKEN_TEXT = 'Request body contains invalid text (a broken character or a NUL)';

describe('identity: bad bodies', () => {
  let svc: TestService;
  let admin: { id: string; email: string; token: string };
  const users = () => `${svc.url}/api/admin/users`;

  beforeAll(async () => {
    svc = await startIdentity();
    admin = await createAdmin(svc);
  });
  afterAll(() => svc.close());

  const raw = (url: string, rawBody: string, token?: string, method = 'POST') =>
    request(url, { method, rawBody, token });

  it.each([
    ['a lone surrogate in an email', '"\\ud800@example.com"'],
    ['a lone low surrogate', '"a\\udc00@example.com"'],
    ['a NUL', '"a\\u0000b@example.com"'],
  ])('refuses %s on register, subscribe, admin create and admin update', async (_what, email) => {
    const customer = await registerCustomer(svc);
    const calls: Array<[string, string, string?, string?]> = [
      [`${svc.url}/api/users/register`, `{"name": "X", "email": ${email}, "password": "${PASSWORD}"}`],
      [`${svc.url}/api/subscribe`, `{"email": ${email}}`],
      [users(), `{"name": "X", "email": ${email}, "password": "${PASSWORD}"}`, admin.token],
      [`${users()}/${customer.id}`, `{"email": ${email}}`, admin.token, 'PUT'],
      [`${svc.url}/api/users/login`, `{"email": ${email}, "password": "${PASSWORD}"}`],
    ];
    for (const [url, body, token, method] of calls) {
      const res = await raw(url, body, token, method);
      expect({ url, status: res.status, body: res.body }).toEqual({
        url,
        status: 400,
        body: { statusCode: 400, message: BROKEN_TEXT },
      });
    }
    const profile = await request(`${svc.url}/api/users/profile`, { token: customer.token });
    expect(profile.body.email).toBe(customer.email);
  });

  it('refuses a null role on create, and nulls on update, leaving the user as it was', async () => {
    const email = uniqueEmail('nullrole');
    const created = await request(users(), {
      token: admin.token,
      body: { name: 'Null Role', email, password: PASSWORD, role: null },
    });
    expect(created.status).toBe(400);
    expect(created.body.message).toBe('Role must be one of: customer, admin');
    const listed = await request<Array<{ email: string }>>(users(), { token: admin.token });
    expect(listed.body.map((u) => u.email)).not.toContain(email);

    const customer = await registerCustomer(svc);
    for (const [field, message] of [
      ['name', 'Name is required'],
      ['email', 'Email is required'],
      ['role', 'Role must be one of: customer, admin'],
    ]) {
      const res = await request(`${users()}/${customer.id}`, {
        method: 'PUT',
        token: admin.token,
        body: { [field]: null },
      });
      expect({ field, status: res.status, message: res.body.message }).toEqual({ field, status: 400, message });
    }
    for (const value of [['admin'], { $ne: 'customer' }, 1]) {
      const res = await request(`${users()}/${customer.id}`, {
        method: 'PUT',
        token: admin.token,
        body: { role: value },
      });
      expect(res.status).toBe(400);
    }
    const profile = await request(`${svc.url}/api/users/profile`, { token: customer.token });
    expect(profile.body).toEqual(expect.objectContaining({ email: customer.email, role: 'customer' }));
  });

  it('refuses bodies nested thousands deep on every body route', async () => {
    const deep = `{"name": ${'['.repeat(5000)}${']'.repeat(5000)}}`;
    for (const [url, token, method] of [
      [`${svc.url}/api/users/register`],
      [`${svc.url}/api/users/login`],
      [`${svc.url}/api/subscribe`],
      [users(), admin.token],
      [`${users()}/${admin.id}`, admin.token, 'PUT'],
    ] as Array<[string, string?, string?]>) {
      const res = await raw(url, deep, token, method);
      expect({ url, status: res.status, message: res.body.message }).toEqual({
        url,
        status: 400,
        message: 'Request body is nested too deeply',
      });
    }
  });
});
