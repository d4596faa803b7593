import { BadRequestException, ConflictException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  ORDER_MESSAGES,
  toPounds,
  type OrderJson,
  type RecordPaymentReversalRequest,
  type RecordPaymentReversalResponse,
} from '@shop/contracts';
import type { Model } from 'mongoose';
import { OrderLocks } from '../orders/order-locks';
import { statusHistoryOf, type StatusEntry } from '../orders/order-status';
import { toOrderJson } from '../orders/order.mapper';
import { Order, type LeanOrder } from '../orders/order.schema';

/** £12.50, or "USD 12.50" for another currency. */
function formatAmount(pence: number, currency: string): string {
  const amount = toPounds(pence).toFixed(2);
  return currency === 'GBP' ? `£${amount}` : `${currency} ${amount}`;
}

/**
 * Money PayPal gave back outside the shop (a refund in PayPal's dashboard, a chargeback the buyer won), reported by
 * checkout from a verified webhook: recorded on the checkout's order once per PayPal refund id — in its
 * `externalRefunds`, as a note in its status history (the order's status is the admin's to decide), and in
 * `externalRefundedAt`, which puts it on the dashboard's list of payments to look at until an admin marks it reviewed.
 */
@Injectable()
export class PaymentReversals {
  private readonly logger = new Logger(PaymentReversals.name);

  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    private readonly locks: OrderLocks,
  ) {}

  async record(req: RecordPaymentReversalRequest): Promise<RecordPaymentReversalResponse> {
    const found = await this.orders.findOne({ checkoutId: req.checkoutId }, { _id: 1 }).lean<LeanOrder>().exec();
    if (!found) throw new NotFoundException(ORDER_MESSAGES.notFound);
    const orderId = String(found._id);
    return this.locks.withOrder(orderId, async () => {
      const current = await this.orders.findById(orderId).lean<LeanOrder>().exec();
      if (!current) throw new NotFoundException(ORDER_MESSAGES.notFound);
      if (current.externalRefunds?.some((r) => r.id === req.refundId)) return { orderId, recorded: false };
      const now = new Date();
      const note: StatusEntry = {
        status: current.status,
        at: now,
        note: ORDER_MESSAGES.externalRefund(req.kind, formatAmount(req.amountPence, req.currency), req.refundId),
      };
      // The filter keeps a refund to one record. The note is pushed onto the history, never the history set from
      // `current`: a return's step written since that read (returns take no lock: their version guards them) would be
      // lost. An order from before the history was kept stores the history its JSON showed, then the note.
      const stored = !!current.statusHistory?.length;
      const { modifiedCount } = await this.orders
        .updateOne(
          { _id: current._id, 'externalRefunds.id': { $ne: req.refundId } },
          {
            $set: {
              externalRefundedAt: now,
              ...(stored ? {} : { statusHistory: [...statusHistoryOf(current), note] }),
            },
            $push: {
              ...(stored ? { statusHistory: note } : {}),
              externalRefunds: {
                id: req.refundId,
                kind: req.kind,
                amountPence: req.amountPence,
                currency: req.currency,
                at: new Date(req.at),
              },
            },
          },
        )
        .exec();
      if (modifiedCount === 1)
        this.logger.warn({
          msg: 'payment given back outside the shop',
          orderId,
          refundId: req.refundId,
          kind: req.kind,
          amountPence: req.amountPence,
        });
      return { orderId, recorded: modifiedCount === 1 };
    });
  }

  /**
   * An admin's review of the money given back outside the shop: the order leaves the dashboard's list, with a note
   * naming the admin in its history; its `externalRefunds` stay. One write, conditional on the order holding as many
   * as the admin reviewed (`seen`), so a refund recorded since the admin looked keeps it listed (409). Reviewing an
   * order not listed answers it as it is.
   */
  async review(orderId: string, seen: number, by: { _id: string; name: string }): Promise<OrderJson> {
    const current = await this.orders.findById(orderId, { outbox: 0 }).lean<LeanOrder>().exec();
    if (!current) throw new NotFoundException(ORDER_MESSAGES.notFound);
    if (!current.externalRefundedAt) return toOrderJson(current);
    const note: StatusEntry = {
      status: current.status,
      at: new Date(),
      by,
      note: ORDER_MESSAGES.paymentAlertReviewed(seen),
    };
    const reviewed = await this.orders
      .findOneAndUpdate(
        { _id: current._id, externalRefundedAt: { $exists: true }, externalRefunds: { $size: seen } },
        { $unset: { externalRefundedAt: 1 }, $push: { statusHistory: note } },
        { new: true },
      )
      .lean<LeanOrder>()
      .exec();
    if (reviewed) {
      this.logger.log({ msg: 'payment alert reviewed', orderId, refunds: seen, by: by._id });
      return toOrderJson(reviewed);
    }
    const now = await this.orders.findById(orderId, { outbox: 0 }).lean<LeanOrder>().exec();
    if (!now) throw new NotFoundException(ORDER_MESSAGES.notFound);
    if (!now.externalRefundedAt) return toOrderJson(now); // another admin's review won
    if (seen > (now.externalRefunds?.length ?? 0)) throw new BadRequestException(ORDER_MESSAGES.invalidRefundsSeen);
    throw new ConflictException(ORDER_MESSAGES.paymentChangedSinceSeen);
  }
}
