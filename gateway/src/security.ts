import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from 'cors';
import helmet from 'helmet';
import { REQUEST_ID_HEADER, TOTAL_COUNT_HEADER } from '@shop/contracts';
import type { GatewayConfig } from './config';

const PAYPAL = ['https://www.paypal.com', 'https://*.paypal.com', 'https://*.paypalobjects.com'];
/**
 * Outside production only: the dev fake PayPal runs on another local port, and catalog writes image URLs with the
 * gateway's origin (ASSET_URL_PREFIX, http://localhost:8080 in development), which a page opened as 127.0.0.1 must
 * still load.
 */
const LOCAL_DEV = ['http://127.0.0.1:*', 'http://localhost:*'];

/**
 * Security headers for the SPA and the API. The CSP allows our own scripts/styles/images plus PayPal's
 * SDK, frames and API. Styles also allow 'unsafe-inline' because the PayPal SDK and the toast library
 * inject <style> elements at runtime (scripts stay strict). helmet decides the headers; they depend on the
 * configuration only, so they are worked out once at start (by running helmet on a blank response) and each
 * response just gets them.
 */
export function securityHeaders(config: GatewayConfig): ReadonlyArray<[string, string]> {
  const production = config.nodeEnv === 'production';
  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        scriptSrc: ["'self'", ...PAYPAL],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // product images are the shop's own: catalog refuses image URLs from elsewhere rather than this opening up
        // (services/catalog/src/config/asset-urls.ts, isShopImage)
        imgSrc: ["'self'", 'data:', 'blob:', ...PAYPAL, ...(production ? [] : LOCAL_DEV)],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...PAYPAL, ...(production ? [] : LOCAL_DEV)],
        frameSrc: ["'self'", ...PAYPAL],
        formAction: ["'self'", ...PAYPAL],
        frameAncestors: ["'self'"],
        ...(production ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // PayPal's checkout opens a popup that talks back to its opener.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
  const set = new Map<string, string>();
  const blank = {
    setHeader: (name: string, value: string | number | readonly string[]) => set.set(name, String(value)),
    removeHeader: (name: string) => set.delete(name),
    getHeader: (name: string) => set.get(name),
  } as unknown as ServerResponse;
  let done = false;
  headers({ headers: {}, method: 'GET', url: '/' } as IncomingMessage as never, blank as never, () => {
    done = true;
  });
  if (!done) throw new Error('security headers: helmet did not finish synchronously');
  return [...set];
}

/**
 * Product images (`/uploads/*`) are public, and meant to be shown by storefronts on other origins: catalog writes
 * them as absolute URLs (ASSET_URL_PREFIX). helmet's `Cross-Origin-Resource-Policy: same-origin` broke exactly that
 * — and, in development, every image of a shop opened as 127.0.0.1 while its URLs name localhost.
 */
export function embeddable(url: string): boolean {
  return url.startsWith('/uploads/');
}

/** CORS allow-list from CORS_ORIGINS; with none configured the gateway is same-origin only. */
export function corsPolicy(config: GatewayConfig): ReturnType<typeof cors> | undefined {
  if (config.corsOrigins.length === 0) return undefined;
  const allowed = new Set(config.corsOrigins);
  return cors({
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', REQUEST_ID_HEADER],
    // X-Total-Count: the admin lists' total (the body stays a bare array)
    exposedHeaders: [REQUEST_ID_HEADER, 'Retry-After', TOTAL_COUNT_HEADER],
    maxAge: 600,
  });
}
