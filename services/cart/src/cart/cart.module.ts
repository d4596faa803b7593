import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CatalogModule } from '../catalog/catalog.module';
import { CartController } from './cart.controller';
import { CartEvents } from './cart.events';
import { CartService } from './cart.service';
import { CartRepository } from './storage/cart.repository';
import { MongoCartStore } from './storage/mongo-cart.store';
import { RedisCartStore } from './storage/redis-cart.store';
import { UserCart, UserCartSchema } from './storage/user-cart.schema';

@Module({
  imports: [MongooseModule.forFeature([{ name: UserCart.name, schema: UserCartSchema }]), CatalogModule],
  controllers: [CartController],
  providers: [CartService, CartEvents, CartRepository, RedisCartStore, MongoCartStore],
})
export class CartModule {}
