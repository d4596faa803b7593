// Password reset through the gateway (HTTP only). The token travels only in the published event (to the email of
// the notifications service), so here: the same 202 for every email, and refusals of bad tokens and bodies. The full
// journey (the email, the link, signed in) comes with the mail server.
import { PASSWORD_RESET_MESSAGES } from '@shop/contracts';
import { api, e2eEnv, expectJsonError, login, uniqueEmail, type E2eEnv } from './support';

jest.setTimeout(60_000);

describe('password reset through the gateway', () => {
  let env: E2eEnv;

  beforeAll(() => {
    env = e2eEnv();
  });

  it('answers forgot-password with the same 202 for a known and an unknown email', async () => {
    const known = await api(env.baseUrl, 'POST', '/api/users/forgot-password', {
      json: { email: login(env, 'customer').email },
    });
    const unknown = await api(env.baseUrl, 'POST', '/api/users/forgot-password', {
      json: { email: uniqueEmail('nobody') },
    });
    for (const res of [known, unknown]) {
      expect({ status: res.status, body: res.body }).toEqual({
        status: 202,
        body: { message: PASSWORD_RESET_MESSAGES.requested },
      });
    }
    expect(known.text).toBe(unknown.text);
  });

  it('refuses a malformed email, a bad token and a weak password with a 400 message', async () => {
    const badEmail = await api(env.baseUrl, 'POST', '/api/users/forgot-password', { json: { email: 'nope' } });
    expectJsonError(badEmail, 400);
    const badToken = await api(env.baseUrl, 'POST', '/api/users/reset-password', {
      json: { token: 'not-a-real-token', password: 'Brand-new-pass9' },
    });
    expectJsonError(badToken, 400);
    expect(badToken.body.message).toBe(PASSWORD_RESET_MESSAGES.invalidToken);
    const weak = await api(env.baseUrl, 'POST', '/api/users/reset-password', {
      json: { token: 'not-a-real-token', password: 'short' },
    });
    expectJsonError(weak, 400);
    expect(weak.body.message).toBe('Password must be at least 8 characters');
    const notText = await api(env.baseUrl, 'POST', '/api/users/reset-password', {
      json: { token: { $gt: '' }, password: 'Brand-new-pass9' },
    });
    expectJsonError(notText, 400);
  });

  it('refuses an oversized body with a 413 JSON message', async () => {
    const res = await api(env.baseUrl, 'POST', '/api/users/forgot-password', {
      json: { email: 'a@example.com', padding: 'x'.repeat(2 * 1024 * 1024) },
    });
    expectJsonError(res, 413);
  });
});
