import { request, type TestService } from '@shop/nest-common/testing';
import { startIdentity, uniqueEmail } from './identity.fixtures';

describe('identity: newsletter sign-up', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startIdentity();
  });
  afterAll(() => svc.close());

  const subscribe = (body: unknown) => request(`${svc.url}/api/subscribe`, { body });

  it('subscribes an email once', async () => {
    const email = uniqueEmail('news');
    const first = await subscribe({ email });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ message: 'Successfully subscribed to the newsletter' });
    const again = await subscribe({ email: ` ${email.toUpperCase()} ` });
    expect(again.body).toEqual({ statusCode: 400, message: 'Email is already subscribed' });
  });

  it.each([[{}], [{ email: 'nope' }], [{ email: { $ne: null } }], [{ email: ['a@b.co'] }]])(
    'refuses %j',
    async (body) => {
      const res = await subscribe(body);
      expect(res.status).toBe(400);
      expect(typeof res.body.message).toBe('string');
    },
  );
});
