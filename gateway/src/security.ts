import type { RequestHandler } from 'express';
import cors from 'cors';
import helmet from 'helmet';
import { REQUEST_ID_HEADER } from '@shop/contracts';
import type { GatewayConfig } from './config';

const PAYPAL = ['https://www.paypal.com', 'https://*.paypal.com', 'https://*.paypalobjects.com'];
/** The dev fake PayPal runs on another local port; only outside production. */
const LOCAL_DEV = ['http://127.0.0.1:*', 'http://localhost:*'];

/**
 * Security headers for the SPA and the API. The CSP allows our own scripts/styles/images plus PayPal's
 * SDK, frames and API. Styles also allow 'unsafe-inline' because the PayPal SDK and the toast library
 * inject <style> elements at runtime (scripts stay strict).
 */
export function securityHeaders(config: GatewayConfig): RequestHandler {
  const production = config.nodeEnv === 'production';
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        scriptSrc: ["'self'", ...PAYPAL],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...PAYPAL],
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
}

/** CORS allow-list from CORS_ORIGINS; with none configured the gateway is same-origin only. */
export function corsPolicy(config: GatewayConfig): RequestHandler | undefined {
  if (config.corsOrigins.length === 0) return undefined;
  const allowed = new Set(config.corsOrigins);
  return cors({
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', REQUEST_ID_HEADER],
    exposedHeaders: [REQUEST_ID_HEADER, 'Retry-After'],
    maxAge: 600,
  });
}
