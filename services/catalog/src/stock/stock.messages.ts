import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  PATTERNS,
  type PriceLinesResponse,
  type ReleaseStockResponse,
  type ReserveStockResponse,
} from '@shop/contracts';
import { StockService } from './stock.service';

/**
 * Requests cart and checkout send over RabbitMQ. Errors travel back as { statusCode, message }
 * (400 bad request, 404 Product not found, 409 not enough stock) through the shared error filter.
 */
@Controller()
export class StockMessages {
  constructor(private readonly stock: StockService) {}

  @MessagePattern(PATTERNS.catalog.priceLines)
  priceLines(@Payload() payload: unknown): Promise<PriceLinesResponse> {
    return this.stock.priceLines(payload);
  }

  @MessagePattern(PATTERNS.catalog.reserveStock)
  reserve(@Payload() payload: unknown): Promise<ReserveStockResponse> {
    return this.stock.reserve(payload);
  }

  @MessagePattern(PATTERNS.catalog.releaseStock)
  release(@Payload() payload: unknown): Promise<ReleaseStockResponse> {
    return this.stock.release(payload);
  }
}
