import { ConflictException, Injectable, Logger, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import { WISHLIST_MESSAGES, type MoveToCartJson, type WishlistJson } from '@shop/contracts';
import { CartService } from '../cart/cart.service';
import type { CartOwner } from '../cart/storage/cart-store';
import { CatalogProducts, type ProductInfo } from '../catalog/catalog-products';
import { mergedWishlist, pricedWishlist, withItem, withoutItems, type StoredWishlist } from './wishlist.model';
import { WishlistRepository } from './wishlist.repository';

export interface WishlistResult {
  wishlist: WishlistJson;
  /** This call saved the product (false: it was saved already). */
  added: boolean;
}

const MERGE_ROUNDS = 20;

/**
 * The wishlist's use cases. It lives beside the cart because it is kept exactly as the cart is: by the guest id or
 * the signed-in user, merged at the same sign-in, under the same rules of whose list it is, and "Move to cart" is
 * one service's two writes. Products come from the same per-replica copy of the catalogue (CatalogProducts).
 */
@Injectable()
export class WishlistService {
  private readonly logger = new Logger(WishlistService.name);

  constructor(
    private readonly lists: WishlistRepository,
    private readonly products: CatalogProducts,
    private readonly carts: CartService,
  ) {}

  /** The list with current prices and stock; products the catalog no longer sells leave it for good. */
  async read(owner: CartOwner): Promise<WishlistJson> {
    const seen = await this.lists.read(owner);
    const products = await this.products.getMany(seen.list?.items.map((i) => i.productId) ?? []);
    const gone = [...products].filter(([, info]) => !info).map(([id]) => id);
    let list = seen.list;
    if (gone.length) {
      list = await this.lists.change(owner, (current) => withoutItems(current, gone), seen);
      this.logger.log({ products: gone }, 'wishlist items of products no longer sold were removed');
    }
    return this.priced(owner, list, products);
  }

  /** Saves a product (the catalog must sell it); saving it again changes nothing. 409 at the limit. */
  async add(owner: CartOwner, productId: string): Promise<WishlistResult> {
    const seen = await this.lists.read(owner);
    const products = await this.products.getMany([productId, ...(seen.list?.items.map((i) => i.productId) ?? [])]);
    if (!products.get(productId)) throw new NotFoundException(WISHLIST_MESSAGES.productNotFound);
    let added = false;
    const list = await this.lists.change(
      owner,
      (current) => {
        const next = withItem(current, productId);
        if (next === 'full') throw new ConflictException(WISHLIST_MESSAGES.full);
        added = next !== 'present';
        return next === 'present' ? undefined : next.wishlist;
      },
      seen,
    );
    return { wishlist: await this.respond(owner, list, products), added };
  }

  /** Takes a product out; taking out one that is not there changes nothing (a second click of the heart). */
  async remove(owner: CartOwner, productId: string): Promise<WishlistJson> {
    const list = await this.lists.change(owner, (current) => withoutItems(current, [productId]));
    return this.respond(owner, list, new Map());
  }

  /**
   * Moves a saved product to the cart in the size and colour chosen: the line is added to the cart first (every rule
   * of the cart applies: offered options, stock, 99, the cart's size), then the product leaves the wishlist. If the
   * second write fails the product is in both, never in neither.
   */
  async moveToCart(
    owner: CartOwner,
    productId: string,
    line: { size?: string; color?: string; quantity: number },
  ): Promise<MoveToCartJson> {
    const { list } = await this.lists.read(owner);
    if (!list?.items.some((i) => i.productId === productId))
      throw new NotFoundException(WISHLIST_MESSAGES.notInWishlist);
    const { cart } = await this.carts.add(owner, { productId, ...line });
    return { cart, wishlist: await this.remove(owner, productId) };
  }

  /**
   * A guest's list taken into the user's at sign-in, as the guest cart is: each product once, then the guest list is
   * deleted only if it is still the one taken (a compare-and-delete), else taken again — adding the same items twice
   * changes nothing, so a repeated, concurrent or half-finished merge never doubles one and no guest save is lost.
   */
  async merge(userId: string, guest: CartOwner): Promise<WishlistJson> {
    const user: CartOwner = { kind: 'user', id: userId };
    for (let round = 0; round < MERGE_ROUNDS; round++) {
      const taken = await this.lists.read(guest);
      if (!taken.list || !taken.raw) return this.read(user);
      const guestList = taken.list;
      await this.lists.change(user, (current) => mergedWishlist(current, guestList));
      if (await this.lists.removeGuestIfUnchanged(guest.id, taken.raw)) return this.read(user);
    }
    throw new ServiceUnavailableException('The wishlist is changing: try again');
  }

  /** identity.user.deleted. */
  async removeUserList(userId: string): Promise<void> {
    if (typeof userId === 'string' && userId) await this.lists.removeUser(userId);
  }

  private async respond(
    owner: CartOwner,
    list: StoredWishlist | null,
    products: Map<string, ProductInfo | null>,
  ): Promise<WishlistJson> {
    const missing = (list?.items ?? []).map((i) => i.productId).filter((id) => !products.has(id));
    if (missing.length) for (const [id, info] of await this.products.getMany(missing)) products.set(id, info);
    return this.priced(owner, list, products);
  }

  private priced(owner: CartOwner, list: StoredWishlist | null, products: Map<string, ProductInfo | null>) {
    return pricedWishlist(owner, list, (id) => products.get(id));
  }
}
