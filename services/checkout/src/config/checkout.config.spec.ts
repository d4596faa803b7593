import { ConfigError, loadConfig } from '@shop/nest-common';
import { CheckoutConfig } from './checkout.config';

const base = {
  PORT: '3004',
  MONGO_URI: 'mongodb://127.0.0.1:27017/shop_checkout',
  JWT_SECRET: 'a-long-random-secret-of-at-least-32-chars!',
};

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(CheckoutConfig, { ...base, ...env });
    return [];
  } catch (err) {
    return (err as ConfigError).problems;
  }
}

describe('CheckoutConfig', () => {
  it('runs on the fake PayPal in development and tests', () => {
    expect(problems({ NODE_ENV: 'development' })).toEqual([]);
    expect(loadConfig(CheckoutConfig, { ...base }).PAYPAL_MODE).toBe('fake');
  });

  it('refuses to start in production with the fake PayPal or its credentials', () => {
    expect(problems({ NODE_ENV: 'production' })).toEqual([
      'PAYPAL_MODE=fake is refused in production: the fake PayPal approves every payment',
      'PAYPAL_CLIENT_ID must be real PayPal credentials in production',
      'PAYPAL_CLIENT_SECRET must be real PayPal credentials in production',
    ]);
    expect(
      problems({
        NODE_ENV: 'production',
        PAYPAL_MODE: 'paypal',
        PAYPAL_API_BASE: 'https://api-m.paypal.com',
        PAYPAL_CLIENT_ID: 'live-id',
        PAYPAL_CLIENT_SECRET: 'live-secret',
      }),
    ).toEqual([]);
  });

  it('refuses a PayPal base that is not a URL and an unknown mode', () => {
    expect(problems({ PAYPAL_API_BASE: 'paypal.com', PAYPAL_MODE: 'sandbox' })).toEqual([
      'PAYPAL_MODE must be one of the following values: fake, paypal',
      'PAYPAL_API_BASE must be an http(s) URL',
    ]);
  });

  it('PAYPAL_WEBHOOK_ID: letters and digits, optional, never the fake’s in production', () => {
    expect(problems({ PAYPAL_WEBHOOK_ID: '8PT597110X687430LKGECATA' })).toEqual([]);
    expect(problems({ PAYPAL_WEBHOOK_ID: '' })).toEqual([]);
    expect(problems({ PAYPAL_WEBHOOK_ID: 'not-an-id' })).toEqual([
      'PAYPAL_WEBHOOK_ID must be 1-50 letters and digits (PayPal’s webhook id)',
    ]);
    const live = {
      NODE_ENV: 'production',
      PAYPAL_MODE: 'paypal',
      PAYPAL_CLIENT_ID: 'live-id',
      PAYPAL_CLIENT_SECRET: 'live-secret',
    };
    expect(problems({ ...live, PAYPAL_WEBHOOK_ID: 'FAKEWEBHOOKID' })).toEqual([
      'PAYPAL_WEBHOOK_ID must be real PayPal credentials in production',
    ]);
    expect(problems({ ...live, PAYPAL_WEBHOOK_ID: '8PT597110X687430LKGECATA' })).toEqual([]);
    expect(problems(live)).toEqual([]);
  });
});
