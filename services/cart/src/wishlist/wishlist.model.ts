import { MAX_WISHLIST_ITEMS, toPounds, type WishlistItemJson, type WishlistJson } from '@shop/contracts';
import type { CartProduct } from '../cart/model';
import type { CartOwner } from '../cart/storage/cart-store';

/** A saved product as stored: which product and when (never a price: prices are read at every answer). */
export interface StoredWishlistItem {
  productId: string;
  addedAt: string;
}

/** A wishlist as either store keeps it (a guest's as this object's JSON in Redis, a user's as a MongoDB document). */
export interface StoredWishlist {
  items: StoredWishlistItem[];
  createdAt: string;
  updatedAt: string;
}

/** What a wishlist answer shows of a product: the cart's view of it plus the options it is offered in. */
export interface WishlistProduct extends CartProduct {
  sizes: string[];
  colors: string[];
}

export function newWishlist(now = new Date().toISOString()): StoredWishlist {
  return { items: [], createdAt: now, updatedAt: now };
}

export type AddOutcome = { wishlist: StoredWishlist } | 'present' | 'full';

/** The wishlist with the product saved (newest first), 'present' when it is saved already, 'full' at the limit. */
export function withItem(list: StoredWishlist, productId: string, now = new Date().toISOString()): AddOutcome {
  if (list.items.some((i) => i.productId === productId)) return 'present';
  if (list.items.length >= MAX_WISHLIST_ITEMS) return 'full';
  return { wishlist: { ...list, items: [{ productId, addedAt: now }, ...list.items] } };
}

export function withoutItems(list: StoredWishlist, productIds: readonly string[]): StoredWishlist | undefined {
  const items = list.items.filter((i) => !productIds.includes(i.productId));
  return items.length === list.items.length ? undefined : { ...list, items };
}

/**
 * The guest's items taken into the user's list: each product once (the user's own entry kept), newest first, at most
 * MAX_WISHLIST_ITEMS (the guest's oldest left out beyond that; the user's own are never pushed out). Taking the same guest list in again changes
 * nothing, so a repeated or concurrent merge never doubles an item. undefined: nothing to add.
 */
export function mergedWishlist(user: StoredWishlist, guest: StoredWishlist): StoredWishlist | undefined {
  const have = new Set(user.items.map((i) => i.productId));
  const fresh = guest.items.filter((i) => !have.has(i.productId) && Boolean(have.add(i.productId)));
  const room = MAX_WISHLIST_ITEMS - user.items.length;
  if (!fresh.length || room <= 0) return undefined;
  const added = [...fresh].sort(newestFirst).slice(0, room);
  return { ...user, items: [...user.items, ...added].sort(newestFirst) };
}

function newestFirst(a: StoredWishlistItem, b: StoredWishlistItem): number {
  return b.addedAt.localeCompare(a.addedAt);
}

/** The wishlist as the API shows it: current names, images, prices and stock; products `productOf` lacks left out. */
export function pricedWishlist(
  owner: CartOwner,
  list: StoredWishlist | null,
  productOf: (productId: string) => WishlistProduct | null | undefined,
): WishlistJson {
  const items: WishlistItemJson[] = [];
  for (const item of list?.items ?? []) {
    const product = productOf(item.productId);
    if (!product) continue;
    items.push({
      productId: item.productId,
      name: product.name,
      image: product.image,
      price: toPounds(product.pricePence),
      countInStock: product.variants.reduce((sum, v) => sum + Math.max(0, v.countInStock), 0),
      sizes: product.sizes,
      colors: product.colors,
      variants: [...product.variants],
      addedAt: item.addedAt,
    });
  }
  return {
    ...(owner.kind === 'user' ? { user: owner.id } : { guestId: owner.id }),
    items,
    count: items.length,
    limit: MAX_WISHLIST_ITEMS,
  };
}
