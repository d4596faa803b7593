import { getConnectionToken, getModelToken } from '@nestjs/mongoose';
import {
  AUTH_MESSAGES,
  EVENTS,
  PASSWORD_RESET_MESSAGES,
  type EventEnvelope,
  type PasswordResetRequestedEvent,
} from '@shop/contracts';
import { request, waitFor, type TestService } from '@shop/nest-common/testing';
import type { Connection, Model } from 'mongoose';
import { createHash, randomBytes } from 'node:crypto';
import { PasswordReset } from '../src/password-reset/password-reset.schema';
import { PasswordResetService } from '../src/password-reset/password-reset.service';
import { listenTo } from './events.fixtures';
import { PASSWORD, registerCustomer, startIdentity, uniqueEmail } from './identity.fixtures';

const NEW_PASSWORD = 'Brand-new-pass9';
const REQUESTED = { message: PASSWORD_RESET_MESSAGES.requested };
const INVALID = { statusCode: 400, message: PASSWORD_RESET_MESSAGES.invalidToken };

/**
 * A public address of its own for each request, passed as the gateway passes it (identity trusts loopback, so the
 * last hop is the client): random ones met now and then (1 in 256 a pair), and the per-address test then started from
 * another test's count.
 */
let addresses = 0;
const anAddress = () => `203.0.113.7, 198.51.100.${++addresses}`;

describe('identity: password reset', () => {
  let svc: TestService;
  let events: Awaited<ReturnType<typeof listenTo>>;
  let resets: Model<PasswordReset>;

  beforeAll(async () => {
    svc = await startIdentity({
      LOGIN_MAX_FAILURES: '3',
      PASSWORD_RESET_MAX_PER_ACCOUNT: '3',
      PASSWORD_RESET_MAX_PER_ADDRESS: '4',
    });
    events = await listenTo(svc, [EVENTS.identity.passwordResetRequested]);
    resets = svc.app.get(getModelToken(PasswordReset.name));
  });
  afterAll(async () => {
    await events.close();
    await svc.close();
  });

  const forgot = (body: unknown, address = anAddress()) =>
    request(`${svc.url}/api/users/forgot-password`, { body, headers: { 'x-forwarded-for': address } });
  const reset = (body: unknown) => request(`${svc.url}/api/users/reset-password`, { body });
  const login = (email: string, password: string) =>
    request(`${svc.url}/api/users/login`, { body: { email, password } });
  const profile = (token: string) => request(`${svc.url}/api/users/profile`, { token });
  const resetEvents = (userId: string) =>
    events.received.filter((e) => (e.data as PasswordResetRequestedEvent).userId === userId) as Array<
      EventEnvelope<PasswordResetRequestedEvent>
    >;

  /** Asks for a reset link and returns the token the email would carry (taken from the published event). */
  async function requestToken(user: { id: string; email: string }): Promise<string> {
    const before = resetEvents(user.id).length;
    expect((await forgot({ email: user.email })).status).toBe(202);
    await waitFor('the reset event', () => resetEvents(user.id).length > before);
    return resetEvents(user.id)[before].data.token;
  }

  it('answers the same 202 for a known and an unknown email, and sends only for the account', async () => {
    const user = await registerCustomer(svc);
    const ghost = uniqueEmail('ghost');
    const known = await forgot({ email: user.email.toUpperCase() });
    const unknown = await forgot({ email: ghost });
    expect({ status: known.status, body: known.body }).toEqual({ status: 202, body: REQUESTED });
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: 202, body: REQUESTED });
    expect([...known.headers.keys()].sort()).toEqual([...unknown.headers.keys()].sort());
    await svc.app.get(PasswordResetService).settled();
    await waitFor('the reset event', () => resetEvents(user.id).length === 1);
    expect(events.received.some((e) => (e.data as PasswordResetRequestedEvent).email === ghost)).toBe(false);
  });

  it('publishes the event once with the raw token, and stores only its SHA-256', async () => {
    const user = await registerCustomer(svc, 'Hash Only');
    const token = await requestToken(user);
    const [event] = resetEvents(user.id);
    expect(event.type).toBe(EVENTS.identity.passwordResetRequested);
    expect(event.data).toEqual({
      userId: user.id,
      name: 'Hash Only',
      email: user.email,
      token,
      expiresAt: expect.any(String),
    });
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const minutes = (Date.parse(event.data.expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30);

    const record = await resets.findOne({ userId: user.id }).lean().exec();
    expect(record?.tokenHash).toBe(createHash('sha256').update(token).digest('base64url'));
    await waitFor('the outbox entry marked published', async () => {
      const doc = await resets.findOne({ userId: user.id }).lean().exec();
      return doc?.outboxPending === false;
    });
    // Nowhere in the database, in any collection, is the raw token.
    const db = svc.app.get<Connection>(getConnectionToken()).db!;
    for (const { name } of await db.listCollections().toArray()) {
      const docs = await db.collection(name).find().toArray();
      expect({ name, holdsToken: JSON.stringify(docs).includes(token) }).toEqual({ name, holdsToken: false });
    }
    // Once: a sweep after the relay finds nothing left to publish.
    await new Promise((r) => setTimeout(r, 300));
    expect(resetEvents(user.id)).toHaveLength(1);
  });

  it('sets the new password and signs in as login does; the token works once', async () => {
    const user = await registerCustomer(svc, 'Reset Me');
    const token = await requestToken(user);
    const res = await reset({ token, password: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['token', 'user']);
    expect(res.body.user).toEqual(
      expect.objectContaining({ _id: user.id, name: 'Reset Me', email: user.email, role: 'customer' }),
    );
    expect(JSON.stringify(res.body)).not.toMatch(/password/i);
    expect((await profile(res.body.token)).status).toBe(200);
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);
    expect((await login(user.email, PASSWORD)).status).toBe(401);
    expect((await reset({ token, password: 'Another-pass-1' })).body).toEqual(INVALID);
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('refuses an expired token, and an unknown one, with the same message', async () => {
    const user = await registerCustomer(svc);
    const token = await requestToken(user);
    // (after the relay marked the event published, so that its write does not undo this one)
    await waitFor('the event marked published', async () => (await resets.exists({ outboxPending: true })) === null);
    await resets.updateOne({ userId: user.id }, { $set: { expiresAt: new Date(Date.now() - 1000) } }).exec();
    expect((await reset({ token, password: NEW_PASSWORD })).body).toEqual(INVALID);
    expect((await reset({ token: randomBytes(32).toString('base64url'), password: NEW_PASSWORD })).body).toEqual(
      INVALID,
    );
    expect((await login(user.email, PASSWORD)).status).toBe(200);
    // The sweep deletes what has expired.
    expect(await svc.app.get(PasswordResetService).purgeExpired()).toBeGreaterThanOrEqual(1);
    expect(await resets.countDocuments({ userId: user.id }).exec()).toBe(0);
  });

  it('voids the other tokens of the account once a reset succeeded', async () => {
    const user = await registerCustomer(svc);
    const older = await requestToken(user);
    const newer = await requestToken(user);
    expect((await reset({ token: newer, password: NEW_PASSWORD })).status).toBe(200);
    expect((await reset({ token: older, password: 'Sneaky-pass-1' })).body).toEqual(INVALID);
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);
    expect(await resets.countDocuments({ userId: user.id }).exec()).toBe(0);
  });

  it('lets exactly one of concurrent submissions of one token through', async () => {
    for (let trial = 0; trial < 4; trial++) {
      const user = await registerCustomer(svc);
      const token = await requestToken(user);
      const results = await Promise.all(
        ['Racer-one-11', 'Racer-two-22', 'Racer-three-33'].map((password) => reset({ token, password })),
      );
      const won = results.filter((r) => r.status === 200);
      expect(won).toHaveLength(1);
      for (const lost of results.filter((r) => r.status !== 200)) expect(lost.body).toEqual(INVALID);
      const winner = ['Racer-one-11', 'Racer-two-22', 'Racer-three-33'][results.indexOf(won[0])];
      expect((await login(user.email, winner)).status).toBe(200);
      expect((await profile(won[0].body.token)).status).toBe(200);
    }
  });

  it('revokes every earlier session of the account, while the session it answers works', async () => {
    const user = await registerCustomer(svc);
    const earlier = (await login(user.email, PASSWORD)).body.token as string;
    expect((await profile(earlier)).status).toBe(200);
    const token = await requestToken(user);
    const res = await reset({ token, password: NEW_PASSWORD });
    expect(res.status).toBe(200);
    for (const old of [user.token, earlier])
      expect((await profile(old)).body).toEqual({ statusCode: 401, message: AUTH_MESSAGES.tokenFailed });
    expect((await profile(res.body.token)).status).toBe(200);
  });

  it('clears the failed-login count of the account', async () => {
    const user = await registerCustomer(svc);
    for (let i = 0; i < 3; i++) expect((await login(user.email, 'wrong-guess-1')).status).toBe(401);
    expect((await login(user.email, PASSWORD)).status).toBe(429);
    const token = await requestToken(user);
    expect((await reset({ token, password: NEW_PASSWORD })).status).toBe(200);
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('sends nothing beyond the per-account limit, still answering 202', async () => {
    const user = await registerCustomer(svc);
    for (let i = 0; i < 5; i++) expect((await forgot({ email: user.email })).body).toEqual(REQUESTED);
    await svc.app.get(PasswordResetService).settled();
    await waitFor('three reset events', () => resetEvents(user.id).length === 3);
    await new Promise((r) => setTimeout(r, 200));
    expect(resetEvents(user.id)).toHaveLength(3);
    expect(await resets.countDocuments({ userId: user.id }).exec()).toBe(3);
  });

  it('answers 429 beyond the per-address limit, to that address only', async () => {
    const address = anAddress();
    for (let i = 0; i < 4; i++) expect((await forgot({ email: uniqueEmail() }, address)).status).toBe(202);
    const limited = await forgot({ email: uniqueEmail() }, address);
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/^Too many password reset requests, please try again in \d+ minutes?$/);
    expect((await forgot({ email: uniqueEmail() })).status).toBe(202);
  });

  it.each([
    [{}, 'Email is required'],
    [{ email: 'not-an-email' }, 'Please enter a valid email address'],
    [{ email: { $ne: null } }, 'Email must be text'],
    [{ email: ['a@example.com'] }, 'Email must be text'],
  ])('refuses forgot-password with %j', async (body, message) => {
    const res = await forgot(body);
    expect({ status: res.status, message: res.body.message }).toEqual({ status: 400, message });
  });

  it.each([
    [{ password: NEW_PASSWORD }, 'Reset token is required'],
    [{ token: 42, password: NEW_PASSWORD }, 'Reset token must be text'],
    [{ token: { $gt: '' }, password: NEW_PASSWORD }, 'Reset token must be text'],
    [{ token: 'x'.repeat(300), password: NEW_PASSWORD }, PASSWORD_RESET_MESSAGES.invalidToken],
    [{ token: 'abc' }, 'Password is required'],
    [{ token: 'abc', password: 'short' }, 'Password must be at least 8 characters'],
    [{ token: 'abc', password: 'x'.repeat(129) }, 'Password must be at most 128 characters'],
    [{ token: 'abc', password: ['Array-pass-1'] }, 'Password must be text'],
  ])('refuses reset-password with %j', async (body, message) => {
    const res = await reset(body);
    expect({ status: res.status, message: res.body.message }).toEqual({ status: 400, message });
  });

  it('refuses a weak password without using up the token', async () => {
    const user = await registerCustomer(svc);
    const token = await requestToken(user);
    expect((await reset({ token, password: 'short' })).status).toBe(400);
    expect((await reset({ token, password: NEW_PASSWORD })).status).toBe(200);
  });

  it('answers malformed JSON and oversized bodies with a 4xx JSON message', async () => {
    for (const path of ['forgot-password', 'reset-password']) {
      const url = `${svc.url}/api/users/${path}`;
      expect((await request(url, { rawBody: '{"email": ' })).body).toEqual({
        statusCode: 400,
        message: 'Malformed JSON in request body',
      });
      const huge = await request(url, { body: { email: 'a@example.com', token: 'x'.repeat(2 * 1024 * 1024) } });
      expect(huge.status).toBe(413);
      expect(typeof huge.body.message).toBe('string');
    }
  });
});
