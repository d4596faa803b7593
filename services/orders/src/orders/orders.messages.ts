import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { PATTERNS, type CreateOrderResponse } from '@shop/contracts';
import { CreateOrderDto } from './dto/create-order.dto';
import { OrdersService } from './orders.service';

/**
 * Requests other services send over RabbitMQ. The payload is validated by the global pipe; errors travel
 * back as { statusCode, message } (400 for a malformed request) through the shared error filter.
 */
@Controller()
export class OrdersMessages {
  constructor(private readonly orders: OrdersService) {}

  /** checkout → orders when a paid checkout is finalized; idempotent on checkoutId. */
  @MessagePattern(PATTERNS.orders.createOrder)
  create(@Payload() request: CreateOrderDto): Promise<CreateOrderResponse> {
    return this.orders.createFromCheckout(request);
  }
}
