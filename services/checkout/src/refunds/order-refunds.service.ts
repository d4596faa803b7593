import { ConflictException, HttpException, Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  CHECKOUT_MESSAGES,
  RETURN_MESSAGES,
  type RefundOrderPaymentRequest,
  type RefundOrderPaymentResponse,
  type RefundReturnRequest,
  type RefundReturnResponse,
} from '@shop/contracts';
import { Metrics, type Counter } from '@shop/nest-common';
import type { Model, Types } from 'mongoose';
import { CheckoutLocks } from '../checkouts/checkout-locks';
import { Payment, refundRequestId, returnRefundRequestId } from '../checkouts/payment.schema';
import { PayPalClient } from '../paypal/paypal.client';
import { refundIdsOf, verifyPayPalRefund } from '../paypal/paypal-verification';

type LeanPayment = Payment & { _id: Types.ObjectId };

/**
 * Refunds the PayPal payment of a cancelled order, exactly once. The payment's record (unique `paypalOrderId`) says
 * whether it was refunded already; it is read and written under the checkout's lock, the lock pay and the sweeper
 * take, so two cancels, or a retry while the first is still at PayPal, take turns and the second answers the first's
 * refund. PayPal itself is asked with the payment's one `PayPal-Request-Id`, so a refund made but not recorded (a
 * crash, a lost answer) is answered again by PayPal, not made twice. A refund counts once PayPal's own record of the
 * order shows it (verifyPayPalRefund), as a payment counts once PayPal's record shows the capture.
 */
@Injectable()
export class OrderRefundsService {
  private readonly logger = new Logger(OrderRefundsService.name);
  private readonly outcomes: Counter<'outcome'>;

  constructor(
    @InjectModel(Payment.name) private readonly payments: Model<Payment>,
    private readonly paypal: PayPalClient,
    private readonly locks: CheckoutLocks,
    metrics: Metrics,
  ) {
    this.outcomes = metrics.counter(
      'shop_order_refunds_total',
      'Refunds of cancelled orders: refunded (by PayPal now), repeated (answered from the record), found (made at PayPal, recorded late), refused (by PayPal)',
      ['outcome'],
    );
  }

  async refundOrderPayment(req: RefundOrderPaymentRequest): Promise<RefundOrderPaymentResponse> {
    return this.locks.run(req.checkoutId, async () => {
      const payment = await this.payments.findOne({ paypalOrderId: req.paypalOrderId }).lean<LeanPayment>().exec();
      if (!payment || payment.checkoutId !== req.checkoutId || payment.details.captureId !== req.captureId) {
        this.logger.warn({ ...req, known: !!payment }, 'refund asked for a payment not on record');
        throw new ConflictException(CHECKOUT_MESSAGES.paymentNotFound);
      }
      if (payment.status === 'refunded' && payment.refundId) {
        this.outcomes.inc({ outcome: 'repeated' });
        return {
          refunded: true,
          refundId: payment.refundId,
          amountPence: payment.refundedPence ?? payment.amountPence,
          currency: payment.details.currency,
        };
      }

      if (req.onlyIfMade) return this.madeAlready(req, payment);

      const answer = await this.paypal.refundCapture(req.captureId, refundRequestId(payment.paypalOrderId));
      if (!answer.ok) {
        this.outcomes.inc({ outcome: 'refused' });
        this.logger.warn({ ...req, issue: answer.issue, reason: answer.reason }, 'PayPal refused the refund');
        return { refunded: false, reason: answer.reason };
      }
      const verified = verifyPayPalRefund(await this.paypal.getOrder(payment.paypalOrderId), {
        refundId: answer.id,
        captureId: req.captureId,
        pence: payment.amountPence,
        currency: payment.details.currency,
      });
      if (!verified.ok) {
        // Asked again, PayPal answers the same refund (same request id), and it is verified then.
        this.logger.error({ ...req, refundId: answer.id, reason: verified.reason }, 'refund not confirmed by PayPal');
        throw new HttpException({ statusCode: 502, message: CHECKOUT_MESSAGES.refundNotVerified }, 502);
      }
      await this.record(payment, req, answer.id, verified.amountPence);
      this.outcomes.inc({ outcome: 'refunded' });
      this.logger.log({ ...req, refundId: answer.id, amountPence: verified.amountPence }, 'order payment refunded');
      return { refunded: true, refundId: answer.id, amountPence: verified.amountPence, currency: verified.currency };
    });
  }

  /**
   * Refunds `amountPence` of an order's payment for one of its returns (issue 38): one refund per return, however
   * often or concurrently asked. Under the checkout's lock (the one every refund of the payment takes), the payment's
   * record answers a return refunded already; otherwise what remains of the payment (less its full refund and its
   * returns' refunds) must cover the amount (409 if not), and PayPal is asked for that amount of the capture with the
   * return's one `PayPal-Request-Id` (a refund made but not recorded — a crash, a lost answer — is answered again by
   * PayPal, not made twice). It counts once PayPal's record of the order shows it, then it is recorded on the payment.
   */
  async refundReturn(req: RefundReturnRequest): Promise<RefundReturnResponse> {
    return this.locks.run(req.checkoutId, async () => {
      const payment = await this.payments.findOne({ paypalOrderId: req.paypalOrderId }).lean<LeanPayment>().exec();
      if (!payment || payment.checkoutId !== req.checkoutId || payment.details.captureId !== req.captureId) {
        this.logger.warn({ ...req, known: !!payment }, 'return refund asked for a payment not on record');
        throw new ConflictException(CHECKOUT_MESSAGES.paymentNotFound);
      }
      const made = payment.returnRefunds?.find((r) => r.returnId === req.returnId);
      if (made) {
        this.outcomes.inc({ outcome: 'repeated' });
        return {
          refunded: true,
          refundId: made.refundId,
          amountPence: made.amountPence,
          currency: payment.details.currency,
        };
      }
      const refunded =
        (payment.status === 'refunded' ? (payment.refundedPence ?? payment.amountPence) : 0) +
        (payment.returnRefunds ?? []).reduce((sum, r) => sum + r.amountPence, 0);
      if (refunded + req.amountPence > payment.amountPence) {
        this.logger.warn({ ...req, refunded }, 'return refund above what remains of the payment');
        throw new ConflictException(RETURN_MESSAGES.overPaid);
      }
      const currency = payment.details.currency;
      const answer = await this.paypal.refundCapture(req.captureId, returnRefundRequestId(req.returnId), {
        pence: req.amountPence,
        currency,
      });
      if (!answer.ok) {
        this.outcomes.inc({ outcome: 'refused' });
        this.logger.warn({ ...req, issue: answer.issue, reason: answer.reason }, 'PayPal refused the return refund');
        return { refunded: false, reason: answer.reason };
      }
      const verified = verifyPayPalRefund(await this.paypal.getOrder(payment.paypalOrderId), {
        refundId: answer.id,
        captureId: req.captureId,
        pence: req.amountPence,
        currency,
        partial: true,
      });
      if (!verified.ok) {
        this.logger.error(
          { ...req, refundId: answer.id, reason: verified.reason },
          'return refund not confirmed by PayPal',
        );
        throw new HttpException({ statusCode: 502, message: CHECKOUT_MESSAGES.refundNotVerified }, 502);
      }
      // Conditional on the return not being recorded: a record is never written twice, whatever ran beside it.
      await this.payments
        .updateOne(
          { _id: payment._id, 'returnRefunds.returnId': { $ne: req.returnId } },
          {
            $push: {
              returnRefunds: {
                returnId: req.returnId,
                refundId: answer.id,
                amountPence: verified.amountPence,
                at: new Date(),
              },
            },
          },
        )
        .exec();
      this.outcomes.inc({ outcome: 'refunded' });
      this.logger.log({ ...req, refundId: answer.id }, 'return refunded');
      return { refunded: true, refundId: answer.id, amountPence: verified.amountPence, currency: verified.currency };
    });
  }

  /**
   * `onlyIfMade`: was the payment refunded, though not recorded here (PayPal made it, its answer was lost)? PayPal's
   * record of the order decides, as for any refund; found, it is recorded now. Nothing is refunded.
   */
  private async madeAlready(req: RefundOrderPaymentRequest, payment: LeanPayment): Promise<RefundOrderPaymentResponse> {
    const order = await this.paypal.getOrder(payment.paypalOrderId);
    for (const refundId of refundIdsOf(order)) {
      const verified = verifyPayPalRefund(order, {
        refundId,
        captureId: req.captureId,
        pence: payment.amountPence,
        currency: payment.details.currency,
      });
      if (!verified.ok) continue;
      await this.record(payment, req, refundId, verified.amountPence);
      this.outcomes.inc({ outcome: 'found' });
      this.logger.warn({ ...req, refundId }, 'order payment found refunded at PayPal, not on record: recorded');
      return { refunded: true, refundId, amountPence: verified.amountPence, currency: verified.currency };
    }
    return { refunded: false, reason: 'No refund of this payment was made' };
  }

  private async record(payment: LeanPayment, req: RefundOrderPaymentRequest, refundId: string, pence: number) {
    await this.payments
      .updateOne(
        { _id: payment._id },
        {
          $set: {
            status: 'refunded',
            refundId,
            refundedPence: pence,
            refundedAt: new Date(),
            refundedOrderId: req.orderId,
          },
        },
      )
      .exec();
  }
}
