import { CURRENCY } from '@shop/contracts';

let gbp: Intl.NumberFormat | undefined;

/**
 * A price in pounds sterling, through the shop's one formatter (GBP everywhere a shopper sees a price:
 * docs/product.md#business-constants). It is
 * made at the first price, not when this module loads: a page's first Intl object loads ICU's locale data (measured
 * 45–110 ms on a phone's CPU, Chromium at 4× slowdown), which would otherwise lengthen the entry's one evaluation task.
 */
export function formatPrice(pounds: number): string {
  gbp ??= new Intl.NumberFormat('en-GB', { style: 'currency', currency: CURRENCY });
  return gbp.format(pounds);
}

/** Makes the formatter now: src/app/boot.tsx calls it in a task of its own, before the first render needs a price. */
export function prepareMoney(): void {
  formatPrice(0);
}

let gbpWhole: Intl.NumberFormat | undefined;

/** Whole pounds, for a chart's axis (£1,250). */
export function formatWholePounds(pounds: number): string {
  gbpWhole ??= new Intl.NumberFormat('en-GB', { style: 'currency', currency: CURRENCY, maximumFractionDigits: 0 });
  return gbpWhole.format(pounds);
}
