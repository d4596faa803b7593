import { AUTH_MESSAGES, EVENTS, type PasswordResetRequestedEvent } from '@shop/contracts';
import { request, waitFor, type TestService } from '@shop/nest-common/testing';
import { listenTo } from './events.fixtures';
import { PASSWORD, startIdentity, uniqueEmail } from './identity.fixtures';

/** Redis holds the login throttle and the revocation records; here it is unreachable from the start. */
describe('identity while Redis is down', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startIdentity({ REDIS_URL: 'redis://127.0.0.1:1' });
  });
  afterAll(() => svc.close());

  it('still registers and logs in (the per-account throttle steps aside), with JSON answers only', async () => {
    const email = uniqueEmail('outage');
    const registered = await request(`${svc.url}/api/users/register`, {
      body: { name: 'Outage', email, password: PASSWORD },
    });
    expect(registered.status).toBe(201);
    const wrong = await request(`${svc.url}/api/users/login`, { body: { email, password: 'not-the-password' } });
    expect(wrong.body).toEqual({ statusCode: 401, message: 'Invalid email or password' });
    const right = await request(`${svc.url}/api/users/login`, { body: { email, password: PASSWORD } });
    expect(right.status).toBe(200);
  });

  it('refuses protected routes with a 503 rather than trusting a token it cannot check for revocation', async () => {
    const email = uniqueEmail('outage');
    const { body } = await request(`${svc.url}/api/users/register`, {
      body: { name: 'Outage', email, password: PASSWORD },
    });
    const profile = await request(`${svc.url}/api/users/profile`, { token: body.token });
    expect(profile.status).toBe(503);
    expect(profile.body.message).toBe('Authorization is temporarily unavailable');
    expect((await request(`${svc.url}/api/users/profile`)).body).toEqual({
      statusCode: 401,
      message: AUTH_MESSAGES.noToken,
    });
  });

  it('still sends a reset link, but sets no password it cannot revoke the old sessions for: 503, the link kept', async () => {
    const events = await listenTo(svc, [EVENTS.identity.passwordResetRequested]);
    try {
      const email = uniqueEmail('outage');
      await request(`${svc.url}/api/users/register`, { body: { name: 'Outage', email, password: PASSWORD } });
      expect((await request(`${svc.url}/api/users/forgot-password`, { body: { email } })).status).toBe(202);
      await waitFor('the reset event', () => events.received.length > 0);
      const { token } = events.received[0].data as PasswordResetRequestedEvent;
      const reset = (password: string) => request(`${svc.url}/api/users/reset-password`, { body: { token, password } });
      const refused = await reset('Brand-new-pass9');
      expect(refused.status).toBe(503);
      expect(typeof refused.body.message).toBe('string');
      expect((await request(`${svc.url}/api/users/login`, { body: { email, password: PASSWORD } })).status).toBe(200);
    } finally {
      await events.close();
    }
  });

  it('reports itself not ready, naming Redis', async () => {
    const ready = await request(`${svc.url}/ready`);
    expect(ready.status).toBe(503);
    expect(ready.body.message).toMatch(/redis/);
  });
});
