import { startUpstream, startGateway, testConfig, type Running, type Upstream } from './helpers';

describe('security headers and CORS', () => {
  let catalog: Upstream;
  let gw: Running;
  let prod: Running;
  let sameOrigin: Running;

  beforeAll(async () => {
    catalog = await startUpstream('catalog');
    gw = await startGateway(
      testConfig({ catalog }, { CORS_ORIGINS: 'https://shop.example.com, http://localhost:5173' }),
    );
    prod = await startGateway(testConfig({ catalog }, { NODE_ENV: 'production' }));
    sameOrigin = await startGateway(testConfig({ catalog }));
  });

  afterAll(async () => {
    await Promise.all([gw.close(), prod.close(), sameOrigin.close()]);
    await catalog.close();
  });

  it('sends security headers on pages and API responses, and no X-Powered-By', async () => {
    for (const path of ['/', '/api/products', '/api/nope']) {
      const res = await fetch(`${gw.url}${path}`);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(res.headers.get('x-powered-by')).toBeNull();
    }
  });

  it('has a CSP that lets the SPA load itself, its images and PayPal, and nothing else', async () => {
    const csp = (await fetch(`${gw.url}/`)).headers.get('content-security-policy')!;
    const directive = (name: string) => csp.split(';').find((d) => d.trim().startsWith(`${name} `)) ?? '';
    expect(directive('script-src')).toContain("'self'");
    expect(directive('script-src')).toContain('https://www.paypal.com');
    expect(directive('script-src')).toContain('https://*.paypalobjects.com');
    expect(directive('script-src')).not.toContain("'unsafe-inline'");
    expect(directive('img-src')).toEqual(expect.stringContaining('data:'));
    expect(directive('img-src')).toEqual(expect.stringContaining('blob:'));
    expect(directive('frame-src')).toContain('https://*.paypal.com');
    expect(directive('connect-src')).toContain('https://*.paypal.com');
    expect(directive('object-src')).toContain("'none'");
    // dev: the fake PayPal on another local port is reachable
    expect(directive('connect-src')).toContain('http://127.0.0.1:*');
    expect(directive('connect-src')).toContain('http://localhost:*');
    // PayPal's popup checkout needs to talk back to the opener
    expect((await fetch(`${gw.url}/`)).headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
  });

  it('lets pages on other origins show product images, and nothing else', async () => {
    const image = await fetch(`${gw.url}/uploads/seed/jersey.svg`);
    expect(image.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    for (const path of ['/', '/api/products'])
      expect((await fetch(`${gw.url}${path}`)).headers.get('cross-origin-resource-policy')).toBe('same-origin');
  });

  it('does not allow local ports in production', async () => {
    const csp = (await fetch(`${prod.url}/`)).headers.get('content-security-policy')!;
    expect(csp).not.toContain('127.0.0.1');
    expect(csp).not.toContain('localhost');
    expect(csp).toContain('upgrade-insecure-requests');
  });

  it('grants CORS to an allowed origin, including preflight', async () => {
    const res = await fetch(`${gw.url}/api/products`, { headers: { origin: 'https://shop.example.com' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
    expect(res.headers.get('access-control-expose-headers')).toContain('x-request-id');
    expect(res.headers.get('access-control-expose-headers')).toContain('X-Total-Count');

    const preflight = await fetch(`${gw.url}/api/cart`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PUT');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
  });

  it('grants nothing to another origin, or when no origins are configured', async () => {
    const other = await fetch(`${gw.url}/api/products`, { headers: { origin: 'https://evil.example.net' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const none = await fetch(`${sameOrigin.url}/api/products`, { headers: { origin: 'https://shop.example.com' } });
    expect(none.headers.get('access-control-allow-origin')).toBeNull();
  });
});
