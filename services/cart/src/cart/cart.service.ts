import { BadRequestException, ConflictException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import {
  isRefusal,
  optionProblem,
  pricedCart,
  quantityProblem,
  stockOf,
  withLineAdded,
  type LineRefusal,
  type StoredLine,
} from './model';
import { CART_MESSAGES, MAX_CART_LINES, type CartJson, type OrderPlacedEvent } from '@shop/contracts';
import { CatalogProducts, type ProductInfo } from '../catalog/catalog-products';
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
import { CartRepository, type CartChange, type ChangedCart } from './storage/cart.repository';
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

/** A change the line rules (model/cart-lines.ts) refuse, as the exception that answers it. */
function refused({ status, message }: LineRefusal): Error {
  return status === 409 ? new ConflictException(message) : new BadRequestException(message);
}

/**
 * The cart's use cases. Products are read from the catalog before a cart is changed, so a catalog outage
 * fails a request (503) before anything is written; the change itself is a compare-and-set (CartRepository).
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
    const { result, products } = await this.changeWithProducts(owner, key, (products) => {
      const product = products.get(key.productId);
      if (!product) throw new NotFoundException(CART_MESSAGES.productNotFound);
      const problem = optionProblem(product, key);
      if (problem) throw new BadRequestException(problem);
      return (cart) => {
        const next = withLineAdded(cart, key, line.quantity, product);
        if (isRefusal(next)) throw refused(next);
        return next;
      };
    });
    return { cart: await this.respond(owner, result!.cart, products), created: result!.created };
  }

  async update(owner: CartOwner, line: LineRequest & { quantity: number }): Promise<CartJson> {
    const key = lineKey(line);
    const { result, products } = await this.changeWithProducts(owner, key, (products) => {
      const product = products.get(key.productId);
      if (line.quantity > 0) {
        if (!product) throw new NotFoundException(CART_MESSAGES.productNotFound);
        const problem = quantityProblem(line.quantity, stockOf(product, key));
        if (problem) throw refused(problem);
      }
      return (cart, existed) => {
        const existing = existed ? findLine(cart, key) : undefined;
        if (!existing) throw new NotFoundException(CART_MESSAGES.notInCart);
        const lines =
          line.quantity === 0
            ? cart.lines.filter((l) => l !== existing)
            : cart.lines.map((l) => (l === existing ? { ...l, quantity: line.quantity } : l));
        return { ...cart, lines };
      };
    });
    return this.respond(owner, result!.cart, products);
  }

  async remove(owner: CartOwner, line: LineRequest): Promise<CartJson> {
    const key = lineKey(line);
    const { result, products } = await this.changeWithProducts(owner, key, () => (cart, existed) => {
      const existing = existed ? findLine(cart, key) : undefined;
      if (!existing) throw new NotFoundException(CART_MESSAGES.notInCart);
      return { ...cart, lines: cart.lines.filter((l) => l !== existing) };
    });
    return this.respond(owner, result!.cart, products);
  }

  /**
   * Takes a guest's cart into the user's: lines add up (capped by stock and 99), then the guest cart is removed.
   * The guest cart is locked meanwhile (its changes wait: one written between the read and the delete would be lost
   * with it); the user's is changed by compare-and-set as any change, and remembers the guest cart's id, so a
   * repeated, concurrent or half-finished merge never adds the same guest lines twice.
   */
  async merge(userId: string, guest: CartOwner): Promise<CartJson> {
    const user: CartOwner = { kind: 'user', id: userId };
    const [guestCart, userCart] = await Promise.all([this.carts.read(guest), this.carts.read(user)]);
    const products = await this.products.getMany(
      [...(guestCart?.lines ?? []), ...(userCart?.lines ?? [])].map((l) => l.productId),
    );
    const merged = await this.carts.locked(guest, async () => {
      const taken = await this.carts.read(guest);
      if (!taken) return undefined;
      const missing = taken.lines.map((l) => l.productId).filter((id) => !products.has(id));
      if (missing.length) for (const [id, info] of await this.products.getMany(missing)) products.set(id, info);
      const changed = await this.carts.change(user, (cart) => {
        if (!taken.lines.length || (taken.cartId && cart.mergedCarts.includes(taken.cartId))) return undefined;
        const capOf = (line: StoredLine) => {
          const info = products.get(line.productId);
          return info ? lineCap(stockOf(info, line)) : undefined;
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
    });
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
   * Reads the cart and its products plus the line's one, then applies the change `makeChange` makes from those
   * products (it may refuse with an exception before anything is written). The change starts from the same read and
   * is written only if the cart is still so (else read again and changed again: CartRepository.change).
   */
  private async changeWithProducts(
    owner: CartOwner,
    key: LineKey,
    makeChange: (products: Map<string, ProductInfo | null>) => CartChange,
  ): Promise<{ result: ChangedCart | undefined; products: Map<string, ProductInfo | null> }> {
    const seen = await this.carts.readForChange(owner);
    const products = await this.products.getMany([key.productId, ...(seen.cart?.lines ?? []).map((l) => l.productId)]);
    return { result: await this.carts.change(owner, makeChange(products), seen), products };
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

  /** The cart as the API shows it: current names, images and prices; totals summed in pence (model/priced-cart.ts). */
  private priced(owner: CartOwner, cart: StoredCart | null, products: Map<string, ProductInfo | null>): CartJson {
    return pricedCart(owner, cart, (productId) => products.get(productId));
  }
}
