import type { ServiceName } from '@shop/contracts';

/** One public path prefix and the service that answers it. Upstreams receive the full original path. */
export interface Route {
  prefix: string;
  service: ServiceName;
  /** Uploads may carry a larger (streamed) body than JSON routes. */
  upload?: boolean;
  /**
   * Public GETs under this prefix go through the gateway's HTTP cache (http-cache/): kept as the service sent them
   * when its answer allows it (Surrogate-Control), purged by the surrogate keys it names.
   */
  cached?: boolean;
}

/** THE route table: every public path the gateway proxies. */
export const ROUTES: readonly Route[] = [
  { prefix: '/api/users', service: 'identity' },
  { prefix: '/api/admin/users', service: 'identity' },
  { prefix: '/api/subscribe', service: 'identity' },
  { prefix: '/api/products', service: 'catalog', cached: true },
  { prefix: '/api/admin/products', service: 'catalog' },
  { prefix: '/api/admin/reviews', service: 'catalog' },
  // a signed-in read: not under /api/products, whose GETs the HTTP cache fetches anonymously
  { prefix: '/api/reviews', service: 'catalog' },
  { prefix: '/api/stock-alerts', service: 'catalog' },
  { prefix: '/api/upload', service: 'catalog', upload: true },
  { prefix: '/uploads', service: 'catalog' },
  { prefix: '/api/cart', service: 'cart' },
  { prefix: '/api/wishlist', service: 'cart' },
  { prefix: '/api/checkout', service: 'checkout' },
  { prefix: '/api/config', service: 'checkout' },
  { prefix: '/api/admin/discounts', service: 'checkout' },
  // PayPal's webhook listener (the body proxied as it arrived: its signature covers those bytes)
  { prefix: '/api/paypal/webhooks', service: 'checkout' },
  { prefix: '/api/orders', service: 'orders' },
  { prefix: '/api/admin/orders', service: 'orders' },
  { prefix: '/api/admin/returns', service: 'orders' },
  { prefix: '/api/admin/stats', service: 'orders' },
];

/** A `.` or `..` path segment: refused (400) rather than proxied or cached. */
export const DOT_SEGMENT = /(^|\/)\.\.?(\/|$)/;

/** Rate-limited calls: method + normalised path. */
export const RATE_LIMITED = {
  login: { method: 'POST', path: '/api/users/login' },
  register: { method: 'POST', path: '/api/users/register' },
} as const;

/**
 * The form of a path that the services' routers (Express: case-insensitive, non-strict) treat as equal:
 * percent-decoded, lower-cased, without a trailing slash. Used for every matching decision, so that
 * `/API/Users/Login/` cannot slip past the rate limiter.
 */
export function normalisePath(pathname: string): string {
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // A malformed escape cannot match a route literally either; keep it as sent.
  }
  const lowered = decoded.toLowerCase();
  return lowered.length > 1 ? lowered.replace(/\/+$/, '') || '/' : lowered;
}

export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** The route whose prefix owns this path (on a segment boundary), or undefined. */
export function matchRoute(pathname: string): Route | undefined {
  const p = normalisePath(pathname);
  return ROUTES.find((route) => p === route.prefix || p.startsWith(`${route.prefix}/`));
}

/** True for paths the SPA must never answer: /api and /uploads. */
export function isBackendPath(pathname: string): boolean {
  const p = normalisePath(pathname);
  return p === '/api' || p.startsWith('/api/') || p === '/uploads' || p.startsWith('/uploads/');
}
