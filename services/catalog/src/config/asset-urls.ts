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
  /** Whether a stored image URL is one of the shop's own images (see isShopImage). */
  isShopImage(stored: string): boolean;
}

/**
 * ASSET_URL_PREFIX, or by default the gateway's address in development (the SPA, `npm start`) and relative URLs
 * elsewhere (tests; production sets its public origin).
 */
export function assetUrlsOf(
  config: Pick<CatalogConfig, 'ASSET_URL_PREFIX' | 'NODE_ENV'> & Partial<Pick<CatalogConfig, 'UPLOADS_PUBLIC_URL'>>,
): AssetUrls {
  const configured = config.ASSET_URL_PREFIX;
  const development = config.NODE_ENV === 'development' ? `http://localhost:${DEFAULT_PORTS.gateway}` : '';
  const prefix = configured === RELATIVE ? '' : (configured ?? development);
  const isPath = (url: string) => url.startsWith('/') && !url.startsWith('//');
  const uploads = config.UPLOADS_PUBLIC_URL ?? '/uploads';
  return {
    toPublic: (url) => (prefix && isPath(url) ? `${prefix}${url}` : url),
    toStored: (url) => (prefix && url.startsWith(`${prefix}/`) ? url.slice(prefix.length) : url),
    /*
     * Product images are the shop's own: a path on the shop (an upload, served from /uploads/*, or the seed's
     * /uploads/seed/...; sent as the path or under ASSET_URL_PREFIX, which toStored takes off), or what an upload
     * answers (UPLOADS_PUBLIC_URL, when a CDN fronts /uploads). An image hosted anywhere else would show broken in
     * every page of the shop: the gateway's Content-Security-Policy loads images from the shop's origin only
     * (gateway/src/security.ts, img-src). The catalog refuses those rather than the CSP opening img-src to the whole
     * web: a third-party host would learn who views which product, could change or drop the picture at will, and
     * the shop could not resize, cache or keep it (issue 27).
     */
    isShopImage: (stored) => isPath(stored) || stored.startsWith(`${uploads}/`),
  };
}
