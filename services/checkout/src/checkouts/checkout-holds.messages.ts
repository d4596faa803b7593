import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { PATTERNS, type ExpiredHoldResponse } from '@shop/contracts';
import { ExpiredHoldDto } from './dto/expired-hold.dto';
import { CheckoutsService } from './checkouts.service';

/** The catalog's question about a checkout's expired hold (its sweeper), over RabbitMQ. */
@Controller()
export class CheckoutHoldsMessages {
  constructor(private readonly checkouts: CheckoutsService) {}

  @MessagePattern(PATTERNS.checkout.expiredHold)
  expired(@Payload() request: ExpiredHoldDto): Promise<ExpiredHoldResponse> {
    return this.checkouts.expiredHold(request.checkoutId);
  }
}
