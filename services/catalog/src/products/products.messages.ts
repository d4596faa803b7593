import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { PATTERNS, type CountProductsResponse } from '@shop/contracts';
import { ProductsService } from './products.service';

/** Product requests other services send over RabbitMQ (stock and pricing ones are in stock/). */
@Controller()
export class ProductsMessages {
  constructor(private readonly products: ProductsService) {}

  @MessagePattern(PATTERNS.catalog.countProducts)
  async count(): Promise<CountProductsResponse> {
    return { products: await this.products.count() };
  }
}
