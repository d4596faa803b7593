// The notifications service in the running shop: identity's events reach it over the stack's RabbitMQ, and what it
// sends lands in the stack's Mailpit (proving the wiring; the emails of a purchase are the browser journey's).
import { api, e2eEnv, uniqueEmail, waitForEmail, type E2eEnv } from './support';

jest.setTimeout(60_000);

describe('notifications in the running shop', () => {
  let env: E2eEnv;

  beforeAll(() => {
    env = e2eEnv();
  });

  it('runs as a service of its own, which the gateway does not proxy', async () => {
    expect(env.running).toContain('notifications');
    const res = await api(env.baseUrl, 'GET', '/api/notifications');
    expect(res.status).toBe(404);
  });

  it('welcomes a customer who registers through the gateway, by email', async () => {
    const email = uniqueEmail('welcome');
    const res = await api(env.baseUrl, 'POST', '/api/users/register', {
      json: { name: 'Welcome Tester', email, password: 'Welcome!2345' },
    });
    expect(res.status).toBe(201);
    const mail = await waitForEmail(env, email.toLowerCase(), { subject: 'Welcome to Gridiron Store' });
    expect(mail.To.map((t) => t.Address.toLowerCase())).toEqual([email.toLowerCase()]);
    expect(mail.Subject).toBe('Welcome to Gridiron Store, Welcome Tester');
    expect(mail.Text).toContain(email.toLowerCase());
    expect(mail.Text).toContain(env.baseUrl.replace('127.0.0.1', 'localhost'));
    expect(mail.HTML).toContain('Welcome, Welcome Tester');
  });
});
