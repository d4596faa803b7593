import { DEFAULT_PORTS } from '@shop/contracts';
import type { CatalogConfig } from './catalog.config';

/** ASSET_URL_PREFIX's word for "leave image URLs relative" (an empty variable counts as unset). */
export const RELATIVE = 'relative';

/**
 * Image URLs a client on any origin can load: a storefront hosted elsewhere, an app. Products store images as the
 * shop serves them — paths such as `/uploads/seed/...` — and every answer puts the public origin before those
 * paths (as Vendure's asset URL prefix does), so moving the shop to another address rewrites no document; what an
 * admin sends back is stored relative again. Absolute URLs (a CDN's) pass untouched both ways.
 */
export interface AssetUrls {
  /** A stored image URL as answers show it. */
  toPublic(url: string): string;
  /** An image URL from an admin's form, as it is stored. */
  toStored(url: string): string;
}

/**
 * ASSET_URL_PREFIX, or by default the gateway's address in development (the SPA, `npm start`) and relative URLs
 * elsewhere (tests; production sets its public origin).
 */
export function assetUrlsOf(config: Pick<CatalogConfig, 'ASSET_URL_PREFIX' | 'NODE_ENV'>): AssetUrls {
  const configured = config.ASSET_URL_PREFIX;
  const development = config.NODE_ENV === 'development' ? `http://localhost:${DEFAULT_PORTS.gateway}` : '';
  const prefix = configured === RELATIVE ? '' : (configured ?? development);
  const isPath = (url: string) => url.startsWith('/') && !url.startsWith('//');
  return {
    toPublic: (url) => (prefix && isPath(url) ? `${prefix}${url}` : url),
    toStored: (url) => (prefix && url.startsWith(`${prefix}/`) ? url.slice(prefix.length) : url),
  };
}
