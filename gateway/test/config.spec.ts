import { join } from 'node:path';
import { ConfigError, loadConfig, parseSize } from '../src/config';

describe('configuration', () => {
  it('has working defaults for a developer machine', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      redisUrl: 'redis://127.0.0.1:6379',
      upstreams: {
        catalog: ['http://127.0.0.1:3001'],
        cart: ['http://127.0.0.1:3002'],
        identity: ['http://127.0.0.1:3003'],
        checkout: ['http://127.0.0.1:3004'],
        orders: ['http://127.0.0.1:3005'],
      },
      corsOrigins: [],
      bodyLimitBytes: 1024 * 1024,
      uploadBodyLimitBytes: 6 * 1024 * 1024,
      proxyTimeoutMs: 10_000,
      rateLimitLoginPerMin: 300,
      rateLimitRegisterPerMin: 1200,
      rateLimitPrefix: 'gw:rl',
      trustProxy: false,
      logLevel: 'info',
    });
    expect(config.webDist).toBe(join(__dirname, '..', '..', 'web', 'dist'));
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '127.0.0.1',
      REDIS_URL: 'redis://redis:6379/2',
      CATALOG_URL: 'http://catalog:3001/',
      CORS_ORIGINS: 'https://shop.example.com, http://localhost:5173',
      BODY_LIMIT: '512kb',
      UPLOAD_BODY_LIMIT: '10mb',
      PROXY_TIMEOUT_MS: '2500',
      RATE_LIMIT_LOGIN_PER_MIN: '5',
      RATE_LIMIT_REGISTER_PER_MIN: '7',
      RATE_LIMIT_PREFIX: 'prod:gw',
      TRUST_PROXY: '1',
      LOG_LEVEL: 'WARN',
      WEB_DIST: '/srv/web',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      redisUrl: 'redis://redis:6379/2',
      corsOrigins: ['https://shop.example.com', 'http://localhost:5173'],
      bodyLimitBytes: 512 * 1024,
      uploadBodyLimitBytes: 10 * 1024 * 1024,
      proxyTimeoutMs: 2500,
      rateLimitLoginPerMin: 5,
      rateLimitRegisterPerMin: 7,
      rateLimitPrefix: 'prod:gw',
      trustProxy: 1,
      logLevel: 'warn',
      webDist: '/srv/web',
    });
    expect(config.upstreams.catalog).toEqual(['http://catalog:3001']);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toBe('loopback, 10.0.0.0/8');
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(() => loadConfig({ TRUST_PROXY: '999.1.1.1' })).toThrow(/TRUST_PROXY/);
  });

  it('fails at boot with one clear message listing every bad value', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        CART_URL: 'cart:3002',
        BODY_LIMIT: 'lots',
        PROXY_TIMEOUT_MS: '-1',
        RATE_LIMIT_LOGIN_PER_MIN: '0',
        CORS_ORIGINS: 'shop.example.com',
        LOG_LEVEL: 'chatty',
        TRUST_PROXY: 'everyone',
        REDIS_URL: 'http://redis',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const name of [
      'PORT',
      'CART_URL',
      'BODY_LIMIT',
      'PROXY_TIMEOUT_MS',
      'RATE_LIMIT_LOGIN_PER_MIN',
      'CORS_ORIGINS',
      'LOG_LEVEL',
      'TRUST_PROXY',
      'REDIS_URL',
    ]) {
      expect(message).toContain(name);
    }
    expect((error as ConfigError).problems).toHaveLength(9);
  });

  it("reads a service's replicas as a comma list of URLs", () => {
    const config = loadConfig({ CATALOG_URL: 'http://127.0.0.1:3001, http://127.0.0.1:3101/' });
    expect(config.upstreams.catalog).toEqual(['http://127.0.0.1:3001', 'http://127.0.0.1:3101']);
    expect(config.upstreams.cart).toEqual(['http://127.0.0.1:3002']);
    expect(() => loadConfig({ CATALOG_URL: 'http://a:1,b:2' })).toThrow(/CATALOG_URL must be/);
    expect(() => loadConfig({ CATALOG_URL: 'http://a:1,http://a:1' })).toThrow(/CATALOG_URL must be/);
    expect(() => loadConfig({ CATALOG_URL: ',' })).toThrow(/CATALOG_URL must be/);
  });

  it('parses sizes', () => {
    expect(parseSize('1mb')).toBe(1048576);
    expect(parseSize('1.5 KB')).toBe(1536);
    expect(parseSize('2048')).toBe(2048);
    expect(parseSize('0')).toBeUndefined();
    expect(parseSize('-5mb')).toBeUndefined();
  });
});
