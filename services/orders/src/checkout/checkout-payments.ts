import { Injectable } from '@nestjs/common';
import {
  PATTERNS,
  type RefundOrderPaymentRequest,
  type RefundOrderPaymentResponse,
  type RefundReturnRequest,
  type RefundReturnResponse,
} from '@shop/contracts';
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

  /**
   * Refunds a received return's amount of the order's payment, once however often asked (checkout keeps one refund
   * per return and asks PayPal with one request id per return), or says why PayPal refused. No answer within
   * REFUND_TIMEOUT_MS is a 503: asking again answers the refund if it was made meanwhile.
   */
  refundReturn(req: RefundReturnRequest): Promise<RefundReturnResponse> {
    return this.checkout.send<RefundReturnResponse>(PATTERNS.checkout.refundReturn, req, this.config.REFUND_TIMEOUT_MS);
  }
}
