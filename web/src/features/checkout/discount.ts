// The checkout page's discount code (issue 24): "Apply" asks the server for a quote, which prices the cart with the
// code without holding stock or a use; the code then goes with POST /api/checkout, which prices it again.
import { DISCOUNT_MESSAGES, type CartLineJson, type CheckoutQuoteJson } from '@shop/contracts';
import { api, errorMessage } from '@/api/client';

/** A code applied at checkout: what it was typed as, and the server's quote with it. */
export interface AppliedCode {
  code: string;
  /** The quoteKey of the lines it was quoted for. */
  key: string;
  quote: CheckoutQuoteJson & { discount: NonNullable<CheckoutQuoteJson['discount']> };
}

/** The lines as the quote takes them: what was chosen, never a price (the server has those). */
export const quoteLines = (lines: CartLineJson[]) =>
  lines.map(({ productId, quantity, size, color }) => ({ productId, quantity, size, color }));

/** What the quote depends on: a cart whose lines, quantities or prices change is quoted again. */
export const quoteKey = (lines: CartLineJson[]) =>
  lines.map((l) => `${l.productId}|${l.size}|${l.color}|${l.quantity}|${l.price}`).join(',');

/**
 * POST /api/checkout/quote with the code: the applied code, or rejects with the server's message (one of
 * DISCOUNT_MESSAGES for a refused code).
 */
export async function applyCode(lines: CartLineJson[], typed: string): Promise<AppliedCode> {
  const code = typed.trim();
  let quote: CheckoutQuoteJson;
  try {
    quote = (
      await api.post<CheckoutQuoteJson>('/api/checkout/quote', { checkoutItems: quoteLines(lines), discountCode: code })
    ).data;
  } catch (error) {
    throw new Error(errorMessage(error, 'This discount code could not be applied. Please try again.'));
  }
  if (!quote.discount) throw new Error(DISCOUNT_MESSAGES.unknown);
  return { code: quote.discount.code, key: quoteKey(lines), quote: { ...quote, discount: quote.discount } };
}

const REFUSALS = (Object.values(DISCOUNT_MESSAGES) as unknown[]).filter((m): m is string => typeof m === 'string');
const BELOW_MINIMUM = DISCOUNT_MESSAGES.belowMinimum('');

/** True when the checkout's refusal is about its discount code (then the shopper may remove it and go on). */
export const isDiscountRefusal = (message: string | null | undefined): message is string =>
  !!message && (REFUSALS.includes(message) || message.startsWith(BELOW_MINIMUM));
