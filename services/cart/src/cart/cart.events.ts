import { Injectable, OnModuleInit } from '@nestjs/common';
import {
  EVENTS,
  type OrderPlacedEvent,
  type ProductChangedEvent,
  type ProductDeletedEvent,
  type UserDeletedEvent,
} from '@shop/contracts';
import { EventBus } from '@shop/nest-common';
import { CatalogProducts } from '../catalog/catalog-products';
import { WishlistService } from '../wishlist/wishlist.service';
import { CartService } from './cart.service';

/**
 * Events the cart acts on. Orders and user deletions: once per service (queue `<namespace>cart.events`,
 * replicas share it), each handler idempotent by its own key, so the inbox is not consulted: an order's lines leave
 * the cart once because the cart remembers the order id in the same compare-and-set write, and a deleted cart stays
 * deleted. Product changes: on every replica, since each
 * keeps its own copy of the products it prices.
 */
@Injectable()
export class CartEvents implements OnModuleInit {
  constructor(
    private readonly bus: EventBus,
    private readonly carts: CartService,
    private readonly wishlists: WishlistService,
    private readonly products: CatalogProducts,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.bus.subscribe(
      {
        [EVENTS.orders.orderPlaced]: (event) => this.carts.applyOrder(event.data as OrderPlacedEvent),
        [EVENTS.identity.userDeleted]: async (event) => {
          const { userId } = event.data as UserDeletedEvent;
          await this.carts.removeUserCart(userId);
          await this.wishlists.removeUserList(userId);
        },
      },
      // Both idempotent by their own keys (the cart remembers the order id; a deleted cart or wishlist stays deleted): no inbox.
      { inbox: false },
    );
    const forget = (event: { data: ProductChangedEvent | ProductDeletedEvent }) => {
      if (typeof event.data?.productId === 'string') this.products.invalidate(event.data.productId);
    };
    await this.bus.broadcast(
      { [EVENTS.catalog.productChanged]: forget, [EVENTS.catalog.productDeleted]: forget },
      { onResubscribed: () => this.products.clear() },
    );
  }
}
