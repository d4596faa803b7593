import { Module } from '@nestjs/common';
import { ServiceDefaultsModule } from '@shop/nest-common';
import { CartModule } from './cart/cart.module';
import { CartConfig } from './config/cart.config';

@Module({
  imports: [ServiceDefaultsModule.forRoot({ service: 'cart', config: CartConfig }), CartModule],
})
export class AppModule {}
