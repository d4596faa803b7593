import type { ShopConfigJson } from '@shop/contracts';

/** What the shopper is told when PayPal itself did not take the payment (docs/product.md#messages). */
export const PAYMENT_FAILED = 'Payment failed. Try again.';

/** PayPal wants GBP as a string with exactly two decimals (docs/pitfalls.md#paypal-amounts). */
export const paypalAmount = (pounds: number) => (Math.round(pounds * 100) / 100).toFixed(2);

interface PayPalOrder {
  id: string;
  status: string;
  payer?: { email_address?: string; payer_id?: string };
  purchase_units?: Array<{ payments?: { captures?: Array<{ id: string; status: string }> } }>;
}

async function call(url: string, body: unknown): Promise<PayPalOrder> {
  // plain fetch, not the shop's axios client: our bearer token must never go to a payment provider
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'PayPal-Request-Id': crypto.randomUUID() },
    body: JSON.stringify(body),
  });
  const data = (await res.json().catch(() => ({}))) as PayPalOrder & { message?: string };
  if (!res.ok) throw new Error(data.message || `PayPal answered ${res.status}`);
  return data;
}

/**
 * Fake mode (dev and tests): what PayPal's buttons would do in the browser — create an order for the server's
 * total, then capture it — against the fake PayPal whose address GET /api/config gives. The server verifies the
 * payment with PayPal before it marks the checkout paid.
 */
export async function payWithFakePayPal(
  config: ShopConfigJson,
  checkoutId: string,
  total: number,
): Promise<{ id: string } & Record<string, unknown>> {
  const base = (config.paypal.apiBase ?? '').replace(/\/+$/, '');
  if (!base) throw new Error('The test PayPal has no address');
  const order = await call(`${base}/v2/checkout/orders`, {
    intent: 'CAPTURE',
    // custom_id names the checkout in PayPal's webhook events (PAYMENT.CAPTURE.*): the server pays it even when this
    // browser never reports the capture.
    purchase_units: [
      {
        reference_id: checkoutId,
        custom_id: checkoutId,
        amount: { currency_code: 'GBP', value: paypalAmount(total) },
      },
    ],
  });
  const captured = await call(`${base}/v2/checkout/orders/${encodeURIComponent(order.id)}/capture`, {});
  const capture = captured.purchase_units?.[0]?.payments?.captures?.[0];
  if (captured.status !== 'COMPLETED' || capture?.status !== 'COMPLETED') throw new Error(PAYMENT_FAILED);
  return { id: captured.id, status: captured.status, payer: captured.payer, captureId: capture.id };
}
