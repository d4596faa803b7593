import {
  BadRequestException,
  HttpException,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  OnModuleInit,
  ServiceUnavailableException,
} from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  PATTERNS,
  type RecordPaymentReversalRequest,
  type RecordPaymentReversalResponse,
  type ReleaseStockRequest,
} from '@shop/contracts';
import { indexesBuilt, isDuplicateKeyError, Metrics, RpcClient, type Counter } from '@shop/nest-common';
import type { Model, Types } from 'mongoose';
import { CheckoutLocks } from '../../checkouts/checkout-locks';
import { Checkout, type LeanCheckout } from '../../checkouts/checkout.schema';
import { CheckoutsService } from '../../checkouts/checkouts.service';
import { Payment } from '../../checkouts/payment.schema';
import { FAKE_WEBHOOK_ID, CheckoutConfig } from '../../config/checkout.config';
import { DiscountsService } from '../../discounts/discounts.service';
import { CATALOG, ORDERS } from '../../peers/peers';
import { PayPalClient } from '../paypal.client';
import {
  readWebhookEvent,
  transmissionOf,
  type CaptureFacts,
  type RefundFacts,
  type WebhookFacts,
} from './webhook-event';
import { PayPalWebhookEvent } from './webhook-event.schema';

type LeanPayment = Payment & { _id: Types.ObjectId; refunds?: Array<{ id?: unknown }> };

export const WEBHOOK_MESSAGES = {
  notConfigured: 'PayPal webhooks are not configured',
  notAnEvent: 'The body is not a PayPal webhook event',
  notVerified: 'The webhook signature could not be verified',
  orderNotPlaced: 'The order of this payment is not placed yet: PayPal will deliver the event again',
} as const;

/** What the shop did with an event (the answer's `status`, the record's `outcome`, the metric's label). */
export type WebhookOutcome =
  'paid' | 'already-paid' | 'refused' | 'released' | 'recorded' | 'known' | 'own-refund' | 'ignored' | 'duplicate';

/**
 * PayPal's webhooks (`POST /api/paypal/webhooks`): each delivery verified with PayPal itself (its
 * verify-webhook-signature call, over the body's exact text), handled once per event id, and reconciled with the
 * shop's own records:
 * - PAYMENT.CAPTURE.COMPLETED: the checkout the capture names (custom_id) is paid through `pay` itself, as if the
 *   buyer's browser had reported it: verified with PayPal, claimed, its order placed once (keyed by the checkout);
 * - PAYMENT.CAPTURE.DENIED: an unpaid checkout's stock hold (and discount hold) is given back;
 * - PAYMENT.CAPTURE.REFUNDED / REVERSED: money PayPal gave back outside the shop is kept on the payment and recorded
 *   on the order (orders flags it for the admin); the shop's own refunds (cancel, stock gone) are recognised by id.
 * Every handler is idempotent on its own (pay by checkout and PayPal order, the hold's release by checkout, the
 * order's record by refund id), so concurrent deliveries of one event change things once; the record of handled
 * events answers a later repeat without doing anything. A failure that may pass (a peer or PayPal away) is a 503:
 * PayPal delivers the event again, later.
 */
@Injectable()
export class PayPalWebhooksService implements OnModuleInit {
  private readonly logger = new Logger(PayPalWebhooksService.name);
  private readonly received: Counter<'type' | 'outcome'>;

  constructor(
    @InjectModel(PayPalWebhookEvent.name) private readonly events: Model<PayPalWebhookEvent>,
    @InjectModel(Checkout.name) private readonly checkouts: Model<Checkout>,
    @InjectModel(Payment.name) private readonly payments: Model<Payment>,
    @Inject(CATALOG) private readonly catalog: RpcClient,
    @Inject(ORDERS) private readonly orders: RpcClient,
    private readonly checkoutsService: CheckoutsService,
    private readonly discounts: DiscountsService,
    private readonly locks: CheckoutLocks,
    private readonly paypal: PayPalClient,
    private readonly config: CheckoutConfig,
    metrics: Metrics,
  ) {
    this.received = metrics.counter(
      'shop_paypal_webhooks_total',
      'PayPal webhook deliveries, by event type and what the shop did (refused: the signature did not verify)',
      ['type', 'outcome'],
    );
  }

  async onModuleInit(): Promise<void> {
    await indexesBuilt([this.events, this.payments]);
  }

  /** The webhook id events are verified for: PAYPAL_WEBHOOK_ID, or the fake's in fake mode. */
  webhookId(): string | undefined {
    return this.config.PAYPAL_WEBHOOK_ID ?? (this.config.PAYPAL_MODE === 'fake' ? FAKE_WEBHOOK_ID : undefined);
  }

  /**
   * One delivery: 400 unless PayPal signed exactly these bytes for our webhook id (nothing changes), 200 with what
   * was done otherwise (a repeat of a handled event: `duplicate`), 503 when it should be delivered again later.
   */
  async receive(
    headers: Record<string, string | string[] | undefined>,
    rawBody: string | undefined,
    body: unknown,
  ): Promise<{ status: WebhookOutcome }> {
    const webhookId = this.webhookId();
    if (!webhookId) throw new NotFoundException(WEBHOOK_MESSAGES.notConfigured);
    const facts = rawBody === undefined ? undefined : readWebhookEvent(body);
    const transmission = transmissionOf(headers);
    if (!facts || !transmission || rawBody === undefined) {
      this.received.inc({ type: 'unknown', outcome: 'unverified' });
      throw new BadRequestException(facts ? WEBHOOK_MESSAGES.notVerified : WEBHOOK_MESSAGES.notAnEvent);
    }
    const type = facts.type === 'ignored' ? facts.eventType : facts.type;
    if (!(await this.paypal.verifyWebhookSignature(transmission, webhookId, rawBody))) {
      this.logger.warn({ eventId: facts.id, type, transmissionId: transmission.transmission_id }, 'webhook refused');
      this.received.inc({ type: metricType(type), outcome: 'unverified' });
      throw new BadRequestException(WEBHOOK_MESSAGES.notVerified);
    }
    if (await this.events.exists({ _id: facts.id }).exec()) {
      this.received.inc({ type: metricType(type), outcome: 'duplicate' });
      return { status: 'duplicate' };
    }
    const outcome = await this.handle(facts);
    await this.events
      .create({
        _id: facts.id,
        type,
        outcome,
        receivedAt: new Date(),
        ...('capture' in facts
          ? { captureId: facts.capture.captureId, checkoutId: facts.capture.checkoutId }
          : 'refund' in facts
            ? { captureId: facts.refund.captureId, refundId: facts.refund.refundId }
            : {}),
      })
      .catch((err: unknown) => {
        if (!isDuplicateKeyError(err)) throw err; // a concurrent delivery of the same event recorded it first
      });
    this.logger.log({ eventId: facts.id, type, outcome }, 'PayPal webhook handled');
    this.received.inc({ type: metricType(type), outcome });
    return { status: outcome };
  }

  private async handle(facts: WebhookFacts): Promise<WebhookOutcome> {
    switch (facts.type) {
      case 'PAYMENT.CAPTURE.COMPLETED':
        return this.captureCompleted(facts.capture);
      case 'PAYMENT.CAPTURE.DENIED':
        return this.captureDenied(facts.capture);
      case 'PAYMENT.CAPTURE.REFUNDED':
      case 'PAYMENT.CAPTURE.REVERSED':
        return this.refunded(facts.refund);
      default:
        this.logger.log({ eventId: facts.id, type: facts.eventType, reason: facts.reason }, 'webhook ignored');
        return 'ignored';
    }
  }

  /**
   * A capture PayPal completed: the checkout it names is paid by `pay` itself — PayPal asked again (never the event's
   * word), the payment claimed under its unique key, the stock kept, the order placed once — as if the buyer's browser
   * had reported it. The browser's own report, before or after, finds it paid by this PayPal order: a retry.
   */
  private async captureCompleted(capture: CaptureFacts): Promise<WebhookOutcome> {
    const { checkoutId, paypalOrderId } = capture;
    if (!paypalOrderId) return 'ignored';
    if (!checkoutId) {
      // Not a checkout of this shop's SPA (no custom_id): known if a checkout claimed it, nothing to do either way.
      return (await this.payments.exists({ paypalOrderId }).exec()) ? 'known' : 'ignored';
    }
    const checkout = await this.checkouts.findById(checkoutId).lean<LeanCheckout>().exec();
    if (!checkout) return 'ignored';
    if (checkout.isPaid && checkout.paymentDetails?.id !== paypalOrderId) {
      this.logger.warn(
        { checkoutId, paypalOrderId, paidBy: checkout.paymentDetails?.id },
        'a capture of a checkout another PayPal order paid',
      );
      return 'ignored';
    }
    // The browser reported it first (every purchase's usual case): paid, its order placed or, if orders was away,
    // left claimed for the sweeper of claimed payments. Nothing for the webhook to do: no lock, no second PayPal call.
    if (checkout.isPaid) return 'already-paid';
    try {
      await this.checkoutsService.pay(
        { id: checkout.user._id, name: checkout.user.name, role: 'customer' },
        checkoutId,
        {
          paymentStatus: 'paid',
          paymentDetails: { id: paypalOrderId },
        },
      );
    } catch (err) {
      // Refused for good (not verified, used by another checkout, the stock gone and the money refunded): answered
      // once, as it would be to the browser; PayPal retrying would change nothing.
      if (err instanceof HttpException && [402, 404, 409].includes(err.getStatus())) {
        this.logger.warn({ checkoutId, paypalOrderId, err: err.message }, 'captured payment not taken by its checkout');
        return 'refused';
      }
      throw err;
    }
    return 'paid';
  }

  /** A denied capture: the unpaid checkout's units go back on sale, and its discount use is given back. */
  private async captureDenied(capture: CaptureFacts): Promise<WebhookOutcome> {
    const { checkoutId } = capture;
    if (!checkoutId) return 'ignored';
    return this.locks.run(checkoutId, async () => {
      const checkout = await this.checkouts.findById(checkoutId).lean<LeanCheckout>().exec();
      // Paid meanwhile by another capture (the buyer tried again): its stock is the order's now.
      if (!checkout || checkout.isPaid) return 'ignored';
      // Given back only as an unpaid checkout, in one conditional write that also tells its next pay to hold the lines
      // again (`stockReleased`, as for a hold the catalog's sweeper gives back).
      const { matchedCount } = await this.checkouts
        .updateOne(
          { _id: checkout._id, isPaid: false },
          { $set: { stockReleased: true } },
          { timestamps: false, strict: false },
        )
        .exec();
      if (matchedCount !== 1) return 'ignored';
      await this.catalog.send(PATTERNS.catalog.releaseStock, { checkoutId } satisfies ReleaseStockRequest);
      await this.discounts.release(checkout);
      this.logger.warn({ checkoutId, captureId: capture.captureId }, 'capture denied: stock hold released');
      return 'released';
    });
  }

  /**
   * A refund or reversal of a capture. The shop's own refunds are made under the checkout's lock and recorded
   * before it is let go, so under that lock a refund id the payment does not know was made outside the shop: it is
   * kept on the payment (once), and the order is told (once, by refund id). A payment whose checkout it did not pay
   * (refunded when the stock was gone) has no order to tell.
   */
  private async refunded(refund: RefundFacts): Promise<WebhookOutcome> {
    const found = await this.payments
      .findOne({ 'details.captureId': refund.captureId }, { _id: 1, checkoutId: 1 })
      .lean<Pick<LeanPayment, '_id' | 'checkoutId'>>()
      .exec();
    if (!found) return 'ignored';
    return this.locks.run(found.checkoutId, async () => {
      const payment = await this.payments.findById(found._id).lean<LeanPayment>().exec();
      if (!payment) return 'ignored';
      if (madeByTheShop(payment, refund.refundId)) return 'own-refund';
      const at = new Date(refund.at);
      await this.payments
        .updateOne(
          { _id: payment._id, 'externalRefunds.id': { $ne: refund.refundId } },
          {
            $push: {
              externalRefunds: {
                id: refund.refundId,
                kind: refund.kind,
                amountPence: refund.amountPence,
                currency: refund.currency,
                at,
              },
            },
          },
        )
        .exec();
      const checkout = await this.checkouts.findById(payment.checkoutId).lean<LeanCheckout>().exec();
      if (!checkout?.isPaid || checkout.paymentDetails?.id !== payment.paypalOrderId) return 'recorded';
      let answer: RecordPaymentReversalResponse;
      try {
        answer = await this.orders.send<RecordPaymentReversalResponse>(PATTERNS.orders.recordPaymentReversal, {
          checkoutId: payment.checkoutId,
          paypalOrderId: payment.paypalOrderId,
          captureId: refund.captureId,
          refundId: refund.refundId,
          kind: refund.kind,
          amountPence: refund.amountPence,
          currency: refund.currency,
          at: at.toISOString(),
        } satisfies RecordPaymentReversalRequest);
      } catch (err) {
        // Paid, but its order not placed yet (finalize or the sweeper will): PayPal delivers the event again later.
        if (err instanceof HttpException && err.getStatus() === 404)
          throw new ServiceUnavailableException(WEBHOOK_MESSAGES.orderNotPlaced);
        throw err;
      }
      this.logger.warn(
        { checkoutId: payment.checkoutId, orderId: answer.orderId, refundId: refund.refundId, kind: refund.kind },
        'payment given back outside the shop',
      );
      return answer.recorded ? 'recorded' : 'known';
    });
  }
}

/** The shop's own refund of this payment: the one a cancel or a stock-gone refund recorded, or a return's. */
function madeByTheShop(payment: LeanPayment, refundId: string): boolean {
  if (payment.refundId === refundId) return true;
  if (payment.returnRefunds?.some((r) => r.refundId === refundId)) return true;
  return Array.isArray(payment.refunds) && payment.refunds.some((r) => r?.id === refundId);
}

/** The metric's type label: PayPal's event types the shop knows, `other` for the rest (bounded). */
function metricType(type: string): string {
  return type.startsWith('PAYMENT.CAPTURE.') && type.length < 40 ? type : 'other';
}
