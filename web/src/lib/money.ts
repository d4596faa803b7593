import { CURRENCY } from '@shop/contracts';

/** The one formatter of money in the shop (SPEC §9: GBP everywhere a shopper sees a price). */
const gbp = new Intl.NumberFormat('en-GB', { style: 'currency', currency: CURRENCY });

export function formatPrice(pounds: number): string {
  return gbp.format(pounds);
}

let gbpWhole: Intl.NumberFormat | undefined;

/** Whole pounds, for a chart's axis (£1,250). */
export function formatWholePounds(pounds: number): string {
  gbpWhole ??= new Intl.NumberFormat('en-GB', { style: 'currency', currency: CURRENCY, maximumFractionDigits: 0 });
  return gbpWhole.format(pounds);
}
