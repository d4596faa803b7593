import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { PATTERNS, type RefundOrderPaymentResponse, type RefundReturnResponse } from '@shop/contracts';
import { RefundOrderPaymentDto, RefundReturnDto } from './dto/refund-order-payment.dto';
import { OrderRefundsService } from './order-refunds.service';

/**
 * Requests other services send checkout over RabbitMQ (its queue `<ns>checkout_queue`). The payload is validated by
 * the global pipe; errors travel back as `{statusCode, message}` through the shared error filter.
 */
@Controller()
export class RefundsMessages {
  constructor(private readonly refunds: OrderRefundsService) {}

  /** orders → checkout when an admin cancels a paid order; one refund per payment, however often asked. */
  @MessagePattern(PATTERNS.checkout.refundOrderPayment)
  refund(@Payload() request: RefundOrderPaymentDto): Promise<RefundOrderPaymentResponse> {
    return this.refunds.refundOrderPayment(request);
  }

  /** orders → checkout when an admin marks a return Received; one partial refund per return, however often asked. */
  @MessagePattern(PATTERNS.checkout.refundReturn)
  refundReturn(@Payload() request: RefundReturnDto): Promise<RefundReturnResponse> {
    return this.refunds.refundReturn(request);
  }
}
