// ---- HTTP shapes of /api/stock-alerts (catalog: back-in-stock emails; services/catalog/README.md)

/** How long a back-in-stock request waits for its size and colour to come back before it lapses. */
export const STOCK_ALERT_TTL_DAYS = 90;

/** POST /api/stock-alerts: a sold-out variant of a product, and the address to tell (a guest's; ignored with a token). */
export interface StockAlertRequest {
  productId: string;
  size?: string;
  color?: string;
  email?: string;
}

export const STOCK_ALERT_MESSAGES = {
  /** The one answer to a request, whether or not the address had asked already (no enumeration). */
  accepted: "Thanks! We'll email you once when it's back in stock.",
  emailRequired: 'Enter your email address',
  invalidEmail: 'Enter a valid email address',
  inStock: 'This size and colour is in stock: add it to your cart',
  tooMany: 'Too many back-in-stock requests for this address: try again in an hour',
  invalidToken: 'This unsubscribe link is not valid',
  unsubscribed: 'You will get no back-in-stock emails for the products you asked about with this address.',
} as const;
