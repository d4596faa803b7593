import { AUTH_MESSAGES } from '@shop/contracts';
import { request, type TestService } from '@shop/nest-common/testing';
import { JwtService } from '@nestjs/jwt';
import { PASSWORD, registerCustomer, startIdentity, uniqueEmail } from './identity.fixtures';

describe('identity: register, login, profile', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startIdentity({ LOGIN_MAX_FAILURES: '3' });
  });
  afterAll(() => svc.close());

  const register = (body: unknown) => request(`${svc.url}/api/users/register`, { body });
  const login = (body: unknown) => request(`${svc.url}/api/users/login`, { body });

  it('registers a customer and returns the user and a token, never a password', async () => {
    const email = uniqueEmail();
    const res = await register({ name: 'Jordan Love', email, password: PASSWORD });
    expect(res.status).toBe(201);
    expect(res.body.user).toEqual(
      expect.objectContaining({
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        name: 'Jordan Love',
        email,
        role: 'customer',
      }),
    );
    expect(typeof res.body.token).toBe('string');
    expect(JSON.stringify(res.body)).not.toMatch(/password/i);
  });

  it('stores emails trimmed and lower-cased, and logs in whatever the case', async () => {
    const email = uniqueEmail('MiXeD');
    const res = await register({ name: 'Case Test', email: `  ${email.toUpperCase()}  `, password: PASSWORD });
    expect(res.status).toBe(201);
    expect(res.body.user.email).toBe(email.toLowerCase());
    const again = await login({ email: email.toUpperCase(), password: PASSWORD });
    expect(again.status).toBe(200);
    expect(again.body.user.email).toBe(email.toLowerCase());
  });

  it('never lets a client choose its role', async () => {
    const res = await register({ name: 'Sneaky', email: uniqueEmail(), password: PASSWORD, role: 'admin' });
    expect(res.status).toBe(201);
    expect(res.body.user.role).toBe('customer');
  });

  it('refuses a second account for the same email, even when both arrive at once', async () => {
    const email = uniqueEmail('race');
    const results = await Promise.all(
      Array.from({ length: 8 }, () => register({ name: 'Twin', email, password: PASSWORD })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 201))
      expect(r.body).toEqual({ statusCode: 400, message: 'User already exists' });
  });

  it.each([
    [{ email: uniqueEmail(), password: PASSWORD }, 'Name is required'],
    [{ name: '   ', email: uniqueEmail(), password: PASSWORD }, 'Name is required'],
    [{ name: 'x'.repeat(101), email: uniqueEmail(), password: PASSWORD }, 'Name must be at most 100 characters'],
    [{ name: 123, email: uniqueEmail(), password: PASSWORD }, 'Name must be text'],
    [{ name: 'A', email: 'not-an-email', password: PASSWORD }, 'Please enter a valid email address'],
    [{ name: 'A', email: { $gt: '' }, password: PASSWORD }, 'Email must be text'],
    [{ name: 'A', email: uniqueEmail(), password: 'short' }, 'Password must be at least 8 characters'],
    [{ name: 'A', email: uniqueEmail(), password: ['array-password'] }, 'Password must be text'],
  ])('rejects %j with a clear message', async (body, message) => {
    const res = await register(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(res.body.statusCode).toBe(400);
  });

  it('answers the same 401 for an unknown email and a wrong password', async () => {
    const { email } = await registerCustomer(svc);
    const wrong = await login({ email, password: 'wrong-password' });
    const unknown = await login({ email: uniqueEmail('ghost'), password: PASSWORD });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ statusCode: 401, message: 'Invalid email or password' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('treats an operator object as bad input, not a query', async () => {
    const res = await login({ email: { $gt: '' }, password: { $ne: null } });
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
  });

  it('locks an account after too many failed logins, without touching other accounts', async () => {
    const victim = await registerCustomer(svc);
    const bystander = await registerCustomer(svc);
    for (let i = 0; i < 3; i++)
      expect((await login({ email: victim.email, password: 'bad-guess-1' })).status).toBe(401);
    const locked = await login({ email: victim.email, password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(/Too many failed login attempts/);
    expect((await login({ email: bystander.email, password: PASSWORD })).status).toBe(200);
  });

  it('clears the failure count after a successful login', async () => {
    const user = await registerCustomer(svc);
    for (let i = 0; i < 2; i++) await login({ email: user.email, password: 'bad-guess-2' });
    expect((await login({ email: user.email, password: PASSWORD })).status).toBe(200);
    for (let i = 0; i < 2; i++) await login({ email: user.email, password: 'bad-guess-3' });
    expect((await login({ email: user.email, password: PASSWORD })).status).toBe(200);
  });

  it('shows the profile to the token holder only', async () => {
    const user = await registerCustomer(svc, 'Profile Owner');
    const res = await request(`${svc.url}/api/users/profile`, { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      expect.objectContaining({
        _id: user.id,
        name: 'Profile Owner',
        email: user.email,
        role: 'customer',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      }),
    );
    expect(JSON.stringify(res.body)).not.toMatch(/password/i);
  });

  it('answers 401 for a missing, malformed, foreign or expired token', async () => {
    const url = `${svc.url}/api/users/profile`;
    expect((await request(url)).body).toEqual({ statusCode: 401, message: AUTH_MESSAGES.noToken });
    expect((await request(url, { token: 'garbage' })).body).toEqual({
      statusCode: 401,
      message: AUTH_MESSAGES.tokenFailed,
    });
    expect((await request(url, { headers: { authorization: 'Basic abc' } })).status).toBe(401);
    const foreign = new JwtService({ secret: 'some-other-secret-entirely' }).sign({
      sub: 'x',
      role: 'admin',
      name: 'x',
      iatMs: Date.now(),
    });
    expect((await request(url, { token: foreign })).status).toBe(401);
    const user = await registerCustomer(svc);
    const expired = svc.app
      .get(JwtService)
      .sign({ sub: user.id, role: 'customer', name: 'x', iatMs: Date.now() }, { expiresIn: -10 });
    expect((await request(url, { token: expired })).body.message).toBe(AUTH_MESSAGES.tokenFailed);
  });

  it('answers malformed JSON, wrong body types and huge bodies with a 4xx JSON message', async () => {
    const url = `${svc.url}/api/users/register`;
    const malformed = await request(url, { rawBody: '{"name": "x",' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ statusCode: 400, message: 'Malformed JSON in request body' });
    const arrayBody = await request(url, { rawBody: '[1,2,3]' });
    expect(arrayBody.status).toBe(400);
    expect(typeof arrayBody.body.message).toBe('string');
    const huge = await request(url, {
      body: { name: 'x'.repeat(2 * 1024 * 1024), email: uniqueEmail(), password: PASSWORD },
    });
    expect(huge.status).toBe(413);
    expect(typeof huge.body.message).toBe('string');
    const nothing = await request(url, { method: 'POST' });
    expect(nothing.status).toBe(400);
  });

  it('echoes the request id and writes it on the service log line', async () => {
    const res = await request(`${svc.url}/api/users/login`, {
      body: { email: uniqueEmail(), password: PASSWORD },
      headers: { 'x-request-id': 'req-identity-42' },
    });
    expect(res.headers.get('x-request-id')).toBe('req-identity-42');
    const line = svc.logs.find((l) => l.requestId === 'req-identity-42' && l.msg === 'request');
    expect(line).toEqual(
      expect.objectContaining({ service: 'identity', method: 'POST', path: '/api/users/login', status: 401 }),
    );
  });
});
