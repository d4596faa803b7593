import { Module } from '@nestjs/common';
import { ServiceDefaultsModule } from '@shop/nest-common';
import { CartModule } from './cart/cart.module';
import { CartConfig } from './config/cart.config';

@Module({
  imports: [
    // Under load every cart call makes several Redis calls at once: one socket write for those of one turn.
    ServiceDefaultsModule.forRoot({ service: 'cart', config: CartConfig, redis: { autoPipelining: true } }),
    CartModule,
  ],
})
export class AppModule {}
