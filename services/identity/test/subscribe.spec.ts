import { EVENTS } from '@shop/contracts';
import { request, waitFor, type TestService } from '@shop/nest-common/testing';
import { listenTo } from './events.fixtures';
import { startIdentity, uniqueEmail } from './identity.fixtures';

describe('identity: newsletter sign-up', () => {
  let svc: TestService;
  let events: Awaited<ReturnType<typeof listenTo>>;
  beforeAll(async () => {
    svc = await startIdentity();
    events = await listenTo(svc, [EVENTS.identity.subscriberSubscribed]);
  });
  afterAll(async () => {
    await events.close();
    await svc.close();
  });

  const subscribe = (body: unknown) => request(`${svc.url}/api/subscribe`, { body });

  it('subscribes an email once', async () => {
    const email = uniqueEmail('news');
    const first = await subscribe({ email });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ message: 'Successfully subscribed to the newsletter' });
    const again = await subscribe({ email: ` ${email.toUpperCase()} ` });
    expect(again.body).toEqual({ statusCode: 400, message: 'Email is already subscribed' });
  });

  it('announces a new subscriber once, and not a refused second sign-up', async () => {
    const email = uniqueEmail('news');
    expect((await subscribe({ email: email.toUpperCase() })).status).toBe(201);
    await waitFor('the subscribed event', () =>
      events.received.some((e) => (e.data as { email: string }).email === email),
    );
    expect((await subscribe({ email })).status).toBe(400);
    await new Promise((r) => setTimeout(r, 300));
    const mine = events.received.filter((e) => (e.data as { email: string }).email === email);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toEqual(
      expect.objectContaining({
        type: EVENTS.identity.subscriberSubscribed,
        eventId: expect.stringMatching(/^identity\.subscriber\.subscribed:[0-9a-f]{24}$/),
        data: { email },
      }),
    );
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
