import { loadConfig } from '@shop/nest-common';
import { assetUrlsOf } from './asset-urls';
import { CatalogConfig } from './catalog.config';

const BASE = { PORT: '3001', MONGO_URI: 'mongodb://127.0.0.1:27017/x', JWT_SECRET: 'x'.repeat(32) };

describe('image URLs a client on another origin can load', () => {
  it.each<[string, Record<string, string>, string]>([
    ['in development, the gateway', { NODE_ENV: 'development' }, 'http://localhost:8080/uploads/a.webp'],
    ['in tests, relative', { NODE_ENV: 'test' }, '/uploads/a.webp'],
    ['in production, relative unless told', { NODE_ENV: 'production' }, '/uploads/a.webp'],
    [
      'the configured origin',
      { NODE_ENV: 'production', ASSET_URL_PREFIX: 'https://shop.example.com' },
      'https://shop.example.com/uploads/a.webp',
    ],
    ['relative, when told so', { NODE_ENV: 'development', ASSET_URL_PREFIX: 'relative' }, '/uploads/a.webp'],
  ])('puts %s before stored paths', (_what, env, expected) => {
    expect(assetUrlsOf(loadConfig(CatalogConfig, { ...BASE, ...env })).toPublic('/uploads/a.webp')).toBe(expected);
  });

  it('leaves absolute URLs alone, and stores what it shows as the path it was', () => {
    const assets = assetUrlsOf({ NODE_ENV: 'production', ASSET_URL_PREFIX: 'https://shop.example.com' });
    expect(assets.toPublic('https://cdn.example.net/a.webp')).toBe('https://cdn.example.net/a.webp');
    expect(assets.toPublic('//cdn.example.net/a.webp')).toBe('//cdn.example.net/a.webp');
    expect(assets.toStored('https://shop.example.com/uploads/a.webp')).toBe('/uploads/a.webp');
    expect(assets.toStored('https://cdn.example.net/a.webp')).toBe('https://cdn.example.net/a.webp');
    expect(assets.toStored('https://shop.example.com.evil.net/a.webp')).toBe(
      'https://shop.example.com.evil.net/a.webp',
    );
  });

  it('takes as the shop’s own images its paths, and URLs under what its uploads answer (a CDN), nothing else', () => {
    const assets = assetUrlsOf({
      NODE_ENV: 'production',
      ASSET_URL_PREFIX: 'https://shop.example.com',
      UPLOADS_PUBLIC_URL: 'https://cdn.example.com/uploads',
    });
    const own = (url: string) => assets.isShopImage(assets.toStored(url));
    expect(own('/uploads/a.webp')).toBe(true);
    expect(own('/uploads/seed/gb-jersey-1.svg')).toBe(true);
    expect(own('https://shop.example.com/uploads/a.webp')).toBe(true);
    expect(own('https://cdn.example.com/uploads/a.webp')).toBe(true);
    expect(own('https://cdn.example.com/other/a.webp')).toBe(false);
    expect(own('https://images.example.net/a.webp')).toBe(false);
    expect(own('//images.example.net/a.webp')).toBe(false);
    expect(own('https://shop.example.com.evil.net/a.webp')).toBe(false);
  });

  it('refuses a prefix that is neither `relative` nor an http(s) URL without a trailing slash', () => {
    for (const value of ['shop.example.com', 'https://shop.example.com/', 'ftp://x']) {
      expect(() => loadConfig(CatalogConfig, { ...BASE, ASSET_URL_PREFIX: value })).toThrow(/ASSET_URL_PREFIX/);
    }
  });
});
