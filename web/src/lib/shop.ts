/** The shop's own words and placeholders, in one place. */
export const STORE_NAME = 'Gridiron Store';
/**
 * A placeholder number (Ofcom's range reserved for drama), shown in the top bar and the footer
 * (docs/product.md#the-shop).
 */
export const SHOP_PHONE = '+44 20 7946 0000';
export const SHOP_PHONE_HREF = 'tel:+442079460000';
export const SOCIAL_LINKS = [
  { name: 'Facebook', href: 'https://www.facebook.com' },
  { name: 'Instagram', href: 'https://www.instagram.com' },
  { name: 'X (Twitter)', href: 'https://x.com' },
] as const;
/** The header's and the footer's shop links (docs/product.md#header), all on /collections/all. */
export const SHOP_LINKS = [
  { label: 'Men', footer: "Men's Wear", to: '/collections/all?gender=Men' },
  { label: 'Women', footer: "Women's Wear", to: '/collections/all?gender=Women' },
  { label: 'Equipment', footer: 'Equipment', to: '/collections/all?category=Equipment' },
  { label: 'Accessories', footer: 'Accessories', to: '/collections/all?category=Accessories' },
] as const;
