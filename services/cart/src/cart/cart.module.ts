import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CatalogModule } from '../catalog/catalog.module';
import { WishlistController } from '../wishlist/wishlist.controller';
import { WishlistRepository } from '../wishlist/wishlist.repository';
import { UserWishlist, UserWishlistSchema } from '../wishlist/wishlist.schema';
import { WishlistService } from '../wishlist/wishlist.service';
import { CartController } from './cart.controller';
import { CartEvents } from './cart.events';
import { CartService } from './cart.service';
import { CartRepository } from './storage/cart.repository';
import { MongoCartStore } from './storage/mongo-cart.store';
import { RedisCartStore } from './storage/redis-cart.store';
import { UserCart, UserCartSchema } from './storage/user-cart.schema';

/**
 * Carts and wishlists: one module, since both are kept by the same owner (guest id or user), merged at the same
 * sign-in and changed by one event subscription (a user's deletion takes both).
 */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: UserCart.name, schema: UserCartSchema },
      { name: UserWishlist.name, schema: UserWishlistSchema },
    ]),
    CatalogModule,
  ],
  controllers: [CartController, WishlistController],
  providers: [
    CartService,
    CartEvents,
    CartRepository,
    RedisCartStore,
    MongoCartStore,
    WishlistService,
    WishlistRepository,
  ],
})
export class CartModule {}
