import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { PATTERNS, type RecordPaymentReversalResponse } from '@shop/contracts';
import { RecordPaymentReversalDto } from './dto/record-payment-reversal.dto';
import { PaymentReversals } from './payment-reversals.service';

/** checkout → orders: a refund or reversal PayPal reported by webhook (validated by the global pipe: 400 if malformed). */
@Controller()
export class PaymentReversalsMessages {
  constructor(private readonly reversals: PaymentReversals) {}

  @MessagePattern(PATTERNS.orders.recordPaymentReversal)
  record(@Payload() request: RecordPaymentReversalDto): Promise<RecordPaymentReversalResponse> {
    return this.reversals.record(request);
  }
}
