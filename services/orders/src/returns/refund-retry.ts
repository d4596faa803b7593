/** The longest wait between two tries of a refund not made (PayPal refusing it for good is tried hourly). */
export const REFUND_RETRY_MAX_MS = 60 * 60 * 1000;

/**
 * How long after its `attempts`-th failed try a return's refund is tried again: `firstMs`, doubled at each try, at
 * most REFUND_RETRY_MAX_MS. A refund PayPal refuses for good (the capture already refunded outside the shop, the
 * account restricted) is then asked about hourly rather than every pass of the retry.
 */
export function refundRetryDelay(attempts: number, firstMs: number): number {
  return Math.min(firstMs * 2 ** Math.max(0, attempts - 1), REFUND_RETRY_MAX_MS);
}
