import { Injectable } from '@nestjs/common';
import { PATTERNS, type RefundOrderPaymentRequest, type RefundOrderPaymentResponse } from '@shop/contracts';
import { RpcClient } from '@shop/nest-common';
import { OrdersConfig } from '../config/orders.config';

/** What orders asks of checkout, the service that owns payments and talks to PayPal. */
@Injectable()
export class CheckoutPayments {
  constructor(
    private readonly checkout: RpcClient,
    private readonly config: OrdersConfig,
  ) {}

  /**
   * Refunds the order's payment in full, once however often asked (checkout answers a repeat with the same refund),
   * or says why PayPal refused. No answer within REFUND_TIMEOUT_MS is a 503: the refund may still be made, and
   * asking again answers it.
   */
  refund(req: RefundOrderPaymentRequest): Promise<RefundOrderPaymentResponse> {
    return this.checkout.send<RefundOrderPaymentResponse>(
      PATTERNS.checkout.refundOrderPayment,
      req,
      this.config.REFUND_TIMEOUT_MS,
    );
  }
}
