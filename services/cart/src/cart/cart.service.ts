import { BadRequestException, ConflictException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import {
  isRefusal,
  optionProblem,
  pricedCart,
  quantityProblem,
  withLineAdded,
  type LineRefusal,
} from '@shop/cart-model';
import { CART_MESSAGES, MAX_CART_LINES, type CartJson, type OrderPlacedEvent } from '@shop/contracts';
import { CatalogProducts, type ProductInfo } from '../catalog/catalog-products';
import { forLine, variantOf } from '../catalog/variant-stock';
import {
  findLine,
  lineCap,
  mergeLines,
  remember,
  sameLine,
  subtractOrder,
  type LineKey,
  type StoredCart,
} from './cart.model';
import { CartRepository, type CartRead } from './storage/cart.repository';
import type { CartOwner } from './storage/cart-store';

export interface LineRequest {
  productId: string;
  size?: string;
  color?: string;
}

export interface CartResult {
  cart: CartJson;
  created: boolean;
}

function lineKey(line: LineRequest): LineKey {
  return { productId: line.productId, size: line.size ?? '', color: line.color ?? '' };
}

/** A change the line rules (@shop/cart-model) refuse, as the exception that answers it. */
function refused({ status, message }: LineRefusal): Error {
  return status === 409 ? new ConflictException(message) : new BadRequestException(message);
}

/**
 * The cart's use cases. Products are read from the catalog before a cart is changed, so a catalog outage
 * fails a request (503) before anything is written, and a user cart's lock is held only for the cart's own
 * read and write.
 */
@Injectable()
export class CartService {
  private readonly logger = new Logger(CartService.name);

  constructor(
    private readonly carts: CartRepository,
    private readonly products: CatalogProducts,
  ) {}

  async read(owner: CartOwner): Promise<CartJson> {
    const stored = await this.carts.read(owner);
    if (!stored) return this.priced(owner, null, new Map());
    const products = await this.products.getMany(stored.lines.map((l) => l.productId));
    const gone = stored.lines.filter((l) => !products.get(l.productId));
    if (!gone.length) return this.priced(owner, stored, products);
    // A product deleted or unpublished since: its lines leave the cart for good.
    const changed = await this.carts.change(owner, (cart) => ({
      ...cart,
      lines: cart.lines.filter((l) => !gone.some((g) => sameLine(g, l))),
    }));
    this.logger.log({ products: gone.map((l) => l.productId) }, 'lines of products no longer sold were removed');
    return this.priced(owner, changed?.cart ?? stored, products);
  }

  async add(owner: CartOwner, line: LineRequest & { quantity: number }): Promise<CartResult> {
    const key = lineKey(line);
    const { seen, products } = await this.productsOfCart(owner, key);
    const product = products.get(key.productId);
    if (!product) throw new NotFoundException(CART_MESSAGES.productNotFound);
    const problem = optionProblem(product, key);
    if (problem) throw new BadRequestException(problem);
    const result = await this.carts.change(
      owner,
      (cart) => {
        // Stock is kept per size × colour: the line may hold what its variant has.
        const next = withLineAdded(cart, key, line.quantity, forLine(product, key));
        if (isRefusal(next)) throw refused(next);
        return next;
      },
      seen,
    );
    return { cart: await this.respond(owner, result!.cart, products), created: result!.created };
  }

  async update(owner: CartOwner, line: LineRequest & { quantity: number }): Promise<CartJson> {
    const key = lineKey(line);
    const { seen, products } = await this.productsOfCart(owner, key);
    const product = products.get(key.productId);
    if (line.quantity > 0) {
      if (!product) throw new NotFoundException(CART_MESSAGES.productNotFound);
      const problem = quantityProblem(line.quantity, forLine(product, key));
      if (problem) throw refused(problem);
    }
    const result = await this.carts.change(
      owner,
      (cart, existed) => {
        const existing = existed ? findLine(cart, key) : undefined;
        if (!existing) throw new NotFoundException(CART_MESSAGES.notInCart);
        const lines =
          line.quantity === 0
            ? cart.lines.filter((l) => l !== existing)
            : cart.lines.map((l) => (l === existing ? { ...l, quantity: line.quantity } : l));
        return { ...cart, lines };
      },
      seen,
    );
    return this.respond(owner, result!.cart, products);
  }

  async remove(owner: CartOwner, line: LineRequest): Promise<CartJson> {
    const key = lineKey(line);
    const { seen, products } = await this.productsOfCart(owner, key);
    const result = await this.carts.change(
      owner,
      (cart, existed) => {
        const existing = existed ? findLine(cart, key) : undefined;
        if (!existing) throw new NotFoundException(CART_MESSAGES.notInCart);
        return { ...cart, lines: cart.lines.filter((l) => l !== existing) };
      },
      seen,
    );
    return this.respond(owner, result!.cart, products);
  }

  /**
   * Takes a guest's cart into the user's: lines add up (capped by stock and 99), then the guest cart is
   * removed. Both carts are locked (user, then guest), and the user's cart remembers the guest cart's id,
   * so a repeated, concurrent or half-finished merge never adds the same guest lines twice.
   */
  async merge(userId: string, guest: CartOwner): Promise<CartJson> {
    const user: CartOwner = { kind: 'user', id: userId };
    const [guestCart, userCart] = await Promise.all([this.carts.read(guest), this.carts.read(user)]);
    const products = await this.products.getMany(
      [...(guestCart?.lines ?? []), ...(userCart?.lines ?? [])].map((l) => l.productId),
    );
    const merged = await this.carts.locked(user, () =>
      this.carts.locked(guest, async () => {
        const taken = await this.carts.read(guest);
        if (!taken) return undefined;
        const missing = taken.lines.map((l) => l.productId).filter((id) => !products.has(id));
        if (missing.length) for (const [id, info] of await this.products.getMany(missing)) products.set(id, info);
        const changed = await this.carts.changeLocked(user, (cart) => {
          if (!taken.lines.length || (taken.cartId && cart.mergedCarts.includes(taken.cartId))) return undefined;
          const capOf = (line: LineKey) => {
            const info = products.get(line.productId);
            return info ? lineCap(forLine(info, line).countInStock) : undefined;
          };
          const lines = mergeLines(cart.lines, taken.lines, capOf).slice(0, MAX_CART_LINES);
          return {
            ...cart,
            lines,
            mergedCarts: taken.cartId ? remember(cart.mergedCarts, taken.cartId) : cart.mergedCarts,
          };
        });
        await this.carts.remove(guest);
        return changed?.cart;
      }),
    );
    const cart = merged ?? (await this.carts.read(user));
    return this.respond(user, cart, products);
  }

  /**
   * orders.order.placed: the ordered lines leave the buyer's cart, once per order (the cart remembers the
   * order id, so a redelivered event changes nothing, even after the shopper added more).
   */
  async applyOrder(order: OrderPlacedEvent): Promise<void> {
    if (!order?.userId || !order.orderId || !Array.isArray(order.items)) {
      this.logger.warn({ orderId: order?.orderId }, 'order event without a user, an id or items: ignored');
      return;
    }
    await this.carts.change({ kind: 'user', id: order.userId }, (cart) => {
      if (cart.appliedOrders.includes(order.orderId)) return undefined;
      const items = order.items.map((i) => ({ ...i, productId: String(i.productId).toLowerCase() }));
      return {
        ...cart,
        lines: subtractOrder(cart.lines, items),
        appliedOrders: remember(cart.appliedOrders, order.orderId),
      };
    });
    this.logger.log({ orderId: order.orderId, userId: order.userId }, 'ordered lines taken out of the cart');
  }

  /** identity.user.deleted: the user's cart goes with them. */
  async removeUserCart(userId: string): Promise<void> {
    if (typeof userId === 'string' && userId) await this.carts.remove({ kind: 'user', id: userId });
  }

  // ------------------------------------------------------------------ helpers

  /**
   * The cart as it is now and its products plus one more: all a change and its response will need. The change
   * starts from this read (a guest's is written only if it is still so, else read again).
   */
  private async productsOfCart(
    owner: CartOwner,
    key: LineKey,
  ): Promise<{ seen: CartRead; products: Map<string, ProductInfo | null> }> {
    const seen = await this.carts.readForChange(owner);
    const ids = [key.productId, ...(seen.cart?.lines ?? []).map((l) => l.productId)];
    return { seen, products: await this.products.getMany(ids) };
  }

  /** Prices a cart just written; a product another request added meanwhile is fetched too. */
  private async respond(
    owner: CartOwner,
    cart: StoredCart | null,
    products: Map<string, ProductInfo | null>,
  ): Promise<CartJson> {
    const missing = (cart?.lines ?? []).map((l) => l.productId).filter((id) => !products.has(id));
    if (missing.length) for (const [id, info] of await this.products.getMany(missing)) products.set(id, info);
    return this.priced(owner, cart, products);
  }

  /**
   * The cart as the API shows it: current names, images and prices; totals summed in pence (@shop/cart-model); and
   * each line's variant SKU and current stock (the drawer warns when it fell below the line's quantity).
   */
  private priced(owner: CartOwner, cart: StoredCart | null, products: Map<string, ProductInfo | null>): CartJson {
    const json = pricedCart(owner, cart, (productId) => products.get(productId));
    json.products = json.products.map((line) => {
      const product = products.get(line.productId);
      const variant = product && variantOf(product, line);
      return variant ? { ...line, sku: variant.sku, countInStock: variant.countInStock } : line;
    });
    return json;
  }
}
