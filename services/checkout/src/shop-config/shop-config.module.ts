import { Module } from '@nestjs/common';
import { ShopConfigController } from './shop-config.controller';

@Module({ controllers: [ShopConfigController] })
export class ShopConfigModule {}
