import { assertNotProduction, FakePayPalConfigError, readFakePayPalEnv } from './config';

describe('assertNotProduction', () => {
  it.each(['production', 'Production', ' production '])('refuses NODE_ENV=%p', (value) => {
    expect(() => assertNotProduction({ NODE_ENV: value })).toThrow(FakePayPalConfigError);
    expect(() => assertNotProduction({ NODE_ENV: value })).toThrow(/refuses to start with NODE_ENV=production/);
  });

  it.each([undefined, 'development', 'test', ''])('allows NODE_ENV=%p', (value) => {
    expect(() => assertNotProduction({ NODE_ENV: value })).not.toThrow();
  });
});

describe('readFakePayPalEnv', () => {
  it('defaults to 127.0.0.1:8090 and the built-in credentials', () => {
    expect(readFakePayPalEnv({})).toEqual({ port: 8090, host: '127.0.0.1' });
  });

  it('reads port, host, credentials, latency, mode and the anonymous switch', () => {
    expect(
      readFakePayPalEnv({
        FAKE_PAYPAL_PORT: '9999',
        FAKE_PAYPAL_HOST: '0.0.0.0',
        PAYPAL_CLIENT_ID: 'id',
        PAYPAL_CLIENT_SECRET: 'secret',
        FAKE_PAYPAL_LATENCY_MS: '50',
        FAKE_PAYPAL_MODE: 'declined',
        FAKE_PAYPAL_ALLOW_ANONYMOUS: 'false',
      }),
    ).toEqual({
      port: 9999,
      host: '0.0.0.0',
      clientId: 'id',
      clientSecret: 'secret',
      latencyMs: 50,
      mode: 'declined',
      allowAnonymous: false,
    });
  });

  it.each([
    [{ FAKE_PAYPAL_PORT: 'abc' }, /FAKE_PAYPAL_PORT/],
    [{ FAKE_PAYPAL_PORT: '70000' }, /FAKE_PAYPAL_PORT/],
    [{ FAKE_PAYPAL_PORT: '-1' }, /FAKE_PAYPAL_PORT/],
    [{ FAKE_PAYPAL_MODE: 'chaos' }, /FAKE_PAYPAL_MODE must be one of normal, declined/],
    [{ FAKE_PAYPAL_ALLOW_ANONYMOUS: 'maybe' }, /FAKE_PAYPAL_ALLOW_ANONYMOUS/],
    [{ NODE_ENV: 'production' }, /NODE_ENV=production/],
  ])('refuses %p', (env, message) => {
    expect(() => readFakePayPalEnv(env)).toThrow(message);
  });
});
