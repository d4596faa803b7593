import {
  BadRequestException,
  ConflictException,
  HttpException,
  Injectable,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  ORDER_MESSAGES,
  RETURN_MESSAGES,
  RETURN_STATUSES,
  RETURN_WINDOW_DAYS,
  type AdminReturnJson,
  type OrderJson,
  type RefundReturnResponse,
  type ReturnStatus,
} from '@shop/contracts';
import { Metrics, type AuthUser, type Counter, type OutboxEntry } from '@shop/nest-common';
import { Types, type FilterQuery, type Model, type UpdateQuery } from 'mongoose';
import { CheckoutPayments } from '../checkout/checkout-payments';
import { OrdersConfig } from '../config/orders.config';
import { statusHistoryOf, type StatusEntry } from '../orders/order-status';
import { forBuyer, toOrderJson } from '../orders/order.mapper';
import { Order, type LeanOrder } from '../orders/order.schema';
import { OrdersOutbox } from '../orders/orders-outbox';
import { paidPerLine, returnableUntil, returnRefundPence } from './return-amounts';
import { refundRetryDelay } from './refund-retry';
import { returnStatusChangedEvent } from './return-events';
import { toAdminReturnJson } from './return.mapper';
import type { OrderReturn, OrderReturnLine } from './return.schema';
import type { CreateReturnDto } from './dto/create-return.dto';
import type { UpdateReturnDto } from './dto/update-return.dto';

/** How often one change is tried again after another change of the order's returns won the write. */
const WRITE_ATTEMPTS = 8;
/** Most returns the admin's queue shows at once (newest orders with returns first). */
const QUEUE_ORDERS = 200;
/** Most orders one pass of the refund retry tries, those due longest first. */
const RETRY_BATCH = 50;

/** What an admin may move a return to, from each status. */
const NEXT: Record<ReturnStatus, readonly ReturnStatus[]> = {
  Requested: ['Approved', 'Rejected'],
  Approved: ['Received'],
  Rejected: [],
  Received: [],
  Refunded: [],
};

const formatDay = (d: Date) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(d);

/** The admin who changes a return, as their token names them. */
export interface ReturnChangedBy {
  _id: string;
  name: string;
}

/**
 * Returns of delivered orders (issue 38), stored in their order. Every change — a request, an admin's step, the
 * refund recorded — is one `findOneAndUpdate` conditional on the order's `returnsVersion` as read, which also
 * appends the step to the order's status history and its event to the order's outbox: no lock. Two changes at once
 * cannot both apply; the loser reads again and decides anew (a second "Received" click finds it Received). So the
 * units claimed never exceed those bought, the amounts never exceed what was paid, and each step happens once.
 *
 * The refund of a Received return is asked of checkout (which alone talks to PayPal) with the return's amount;
 * checkout makes one refund per return, however often asked (its record, and one PayPal-Request-Id per return). A
 * refund not made (PayPal refusing or away, checkout away) leaves the return Received with its reason
 * (`refundError`, shown to the admin) and the order's `returnRefundDueAt` set to when to try again: REFUND_TIMEOUT_MS
 * after the first try, twice as long after each next one, hourly at most (refundRetryDelay). ReturnRefunds tries the
 * due ones every REFUND_CHECK_MS until each is made, and the admin may ask again (Received again).
 */
@Injectable()
export class ReturnsService {
  private readonly logger = new Logger(ReturnsService.name);
  private readonly steps: Counter<'status'>;

  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    private readonly outbox: OrdersOutbox,
    private readonly checkout: CheckoutPayments,
    private readonly config: OrdersConfig,
    metrics: Metrics,
  ) {
    this.steps = metrics.counter('shop_order_returns_total', 'Steps of returns, by the status reached', ['status']);
  }

  /** The buyer asks to return some units of a delivered order, within the window. Answers the order (buyer's view). */
  async request(caller: AuthUser, orderId: string, dto: CreateReturnDto, now = new Date()): Promise<OrderJson> {
    for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
      const order = await this.read(orderId);
      if (!order || order.user._id !== caller.id) throw new NotFoundException(ORDER_MESSAGES.notFound);
      const ret = this.newReturn(order, dto, now);
      const entry: StatusEntry = {
        status: order.status,
        at: now,
        return: { id: ret._id, status: 'Requested', amountPence: ret.refundPence },
      };
      const event = returnStatusChangedEvent(order, ret, { status: 'Requested', at: now });
      const written = await this.write(order, [...(order.returns ?? []), ret], entry, [event], now);
      if (!written) continue;
      this.logger.log({ msg: 'return requested', orderId, returnId: ret._id, amountPence: ret.refundPence });
      this.steps.inc({ status: 'Requested' });
      this.outbox.relaySoon(orderId);
      return forBuyer(toOrderJson(written));
    }
    throw new ConflictException(RETURN_MESSAGES.busy);
  }

  /** The checks of a request, and the return it makes: units within those bought, amounts within those paid. */
  private newReturn(order: LeanOrder, dto: CreateReturnDto, now: Date): OrderReturn {
    if (order.status !== 'Delivered' || !order.deliveredAt) throw new BadRequestException(RETURN_MESSAGES.notDelivered);
    const deliveredAt = new Date(order.deliveredAt);
    if (now > returnableUntil(deliveredAt, RETURN_WINDOW_DAYS))
      throw new BadRequestException(RETURN_MESSAGES.windowClosed(formatDay(deliveredAt)));
    const seen = new Set<number>();
    for (const { line } of dto.lines) {
      if (line >= order.orderItems.length) throw new BadRequestException(RETURN_MESSAGES.badLine(line));
      if (seen.has(line)) throw new BadRequestException(RETURN_MESSAGES.duplicateLine(line));
      seen.add(line);
    }
    const paid = paidPerLine(order.orderItems, order.totalPence);
    const open = (order.returns ?? []).filter((r) => r.status !== 'Rejected');
    const lines: OrderReturnLine[] = dto.lines.map(({ line, quantity }) => {
      const item = order.orderItems[line];
      const earlier = open.flatMap((r) => r.lines.filter((l) => l.line === line));
      const claimed = {
        quantity: earlier.reduce((n, l) => n + l.quantity, 0),
        pence: earlier.reduce((n, l) => n + l.refundPence, 0),
      };
      const left = item.quantity - claimed.quantity;
      if (quantity > left) throw new BadRequestException(RETURN_MESSAGES.tooMany(item.name, left));
      return {
        line,
        productId: item.productId,
        name: item.name,
        image: item.image,
        size: item.size,
        color: item.color,
        sku: item.sku,
        quantity,
        refundPence: returnRefundPence({ paid: paid[line], bought: item.quantity }, claimed, quantity),
      };
    });
    const refundPence = lines.reduce((n, l) => n + l.refundPence, 0);
    const claimedPence = open.reduce((n, r) => n + r.refundPence, 0);
    // Guaranteed by the lines' amounts; checked again here, where the write that follows is conditional.
    if (claimedPence + refundPence > order.totalPence) throw new ConflictException(RETURN_MESSAGES.overPaid);
    return {
      _id: new Types.ObjectId().toHexString(),
      status: 'Requested',
      reason: dto.reason,
      ...(dto.comment?.trim() ? { comment: dto.comment.trim() } : {}),
      lines,
      refundPence,
      steps: [{ status: 'Requested', at: now }],
      createdAt: now,
      updatedAt: now,
    };
  }

  /**
   * An admin's step: Approved or Rejected (a Requested return, with a note to the customer), Received (an Approved
   * one, with the lines whose units go back on sale), then the refund. The same status again changes nothing —
   * except Received on a Received return, which asks for its refund again (one refund per return, whoever asks).
   */
  async change(orderId: string, returnId: string, dto: UpdateReturnDto, admin: ReturnChangedBy): Promise<OrderJson> {
    const by = { _id: admin._id, name: admin.name };
    const note = dto.note?.trim() || undefined;
    let refundDue = false;
    let order: LeanOrder | null = null;
    for (let attempt = 1; ; attempt++) {
      if (attempt > WRITE_ATTEMPTS) throw new ConflictException(RETURN_MESSAGES.busy);
      order = await this.read(orderId);
      if (!order) throw new NotFoundException(ORDER_MESSAGES.notFound);
      const ret = order.returns?.find((r) => r._id === returnId);
      if (!ret) throw new NotFoundException(RETURN_MESSAGES.notFound);
      if (ret.status === dto.status || (dto.status === 'Received' && ret.status === 'Refunded')) {
        refundDue = ret.status === 'Received';
        break;
      }
      if (!NEXT[ret.status].includes(dto.status))
        throw new BadRequestException(RETURN_MESSAGES.transition(ret.status, dto.status));
      const restock = new Set(dto.restock ?? []);
      if (dto.status === 'Received' && [...restock].some((line) => !ret.lines.some((l) => l.line === line)))
        throw new BadRequestException(RETURN_MESSAGES.badRestock);
      const now = new Date();
      const next: OrderReturn = {
        ...ret,
        status: dto.status,
        lines: dto.status === 'Received' ? ret.lines.map((l) => ({ ...l, restock: restock.has(l.line) })) : ret.lines,
        steps: [...ret.steps, { status: dto.status, at: now, by, ...(note ? { note } : {}) }],
        updatedAt: now,
      };
      const entry: StatusEntry = {
        status: order.status,
        at: now,
        by,
        return: { id: returnId, status: dto.status, amountPence: ret.refundPence, ...(note ? { note } : {}) },
      };
      const event = returnStatusChangedEvent(order, next, {
        status: dto.status,
        previousStatus: ret.status,
        at: now,
        ...(note ? { note } : {}),
      });
      const returns = order.returns!.map((r) => (r._id === returnId ? next : r));
      // The retry leaves the refund to this request until it could have had checkout's answer.
      const firstRetry = new Date(now.getTime() + this.config.REFUND_TIMEOUT_MS);
      const due = dto.status === 'Received' ? { returnRefundDueAt: order.returnRefundDueAt ?? firstRetry } : {};
      const written = await this.write(order, returns, entry, [event], now, due);
      if (!written) continue;
      order = written;
      this.logger.log({ msg: 'return changed', orderId, returnId, status: dto.status, by: by._id });
      this.steps.inc({ status: dto.status });
      this.outbox.relaySoon(orderId);
      refundDue = dto.status === 'Received';
      break;
    }
    if (refundDue) order = (await this.refund(orderId, returnId)) ?? order;
    return toOrderJson(order);
  }

  /**
   * Refunds a Received return through checkout, then records it (Refunded, its event, its history step) in one
   * conditional write; a concurrent refund of the same return got the same refund from checkout and finds it recorded.
   * Not made: the reason is kept on the return for the admin, and it is tried again (ReturnRefunds). Resolves to the
   * order as it now is (null if it is gone).
   */
  async refund(orderId: string, returnId: string): Promise<LeanOrder | null> {
    const order = await this.read(orderId);
    const ret = order?.returns?.find((r) => r._id === returnId);
    if (!order || !ret || ret.status !== 'Received') return order;
    let answer: RefundReturnResponse;
    if (ret.refundPence === 0) answer = { refunded: true, refundId: '', amountPence: 0, currency: 'GBP' };
    else if (!order.paymentDetails) return this.refundFailed(orderId, returnId, RETURN_MESSAGES.notPaid);
    else
      try {
        answer = await this.checkout.refundReturn({
          orderId,
          returnId,
          checkoutId: order.checkoutId,
          paypalOrderId: order.paymentDetails.id,
          captureId: order.paymentDetails.captureId,
          amountPence: ret.refundPence,
        });
      } catch (err) {
        const reason = err instanceof HttpException ? err.message : 'Checkout did not answer';
        this.logger.warn({ msg: 'return refund not made yet', orderId, returnId, reason });
        return this.refundFailed(orderId, returnId, reason);
      }
    if (!answer.refunded) {
      this.logger.warn({ msg: 'return refund refused by PayPal', orderId, returnId, reason: answer.reason });
      return this.refundFailed(orderId, returnId, ORDER_MESSAGES.refundRefused(answer.reason));
    }
    for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
      const current = attempt === 1 ? order : await this.read(orderId);
      const now = new Date();
      const cur = current?.returns?.find((r) => r._id === returnId);
      if (!current || !cur || cur.status !== 'Received') return current;
      const refund = { id: answer.refundId, amountPence: answer.amountPence };
      const next: OrderReturn = {
        ...cur,
        status: 'Refunded',
        // Nothing to give back (units bought for nothing): Refunded without a refund.
        ...(refund.id ? { refund } : {}),
        refundError: undefined,
        steps: [...cur.steps, { status: 'Refunded', at: now }],
        updatedAt: now,
      };
      delete next.refundError;
      const returns = current.returns!.map((r) => (r._id === returnId ? next : r));
      const stillDue = returns.some((r) => r.status === 'Received');
      const entry: StatusEntry = {
        status: current.status,
        at: now,
        return: { id: returnId, status: 'Refunded', amountPence: answer.amountPence },
      };
      const event = returnStatusChangedEvent(current, next, {
        status: 'Refunded',
        previousStatus: 'Received',
        at: now,
        refund: { amountPence: answer.amountPence, currency: answer.currency },
      });
      const written = await this.write(
        current,
        returns,
        entry,
        [event],
        now,
        {},
        stillDue ? [] : ['returnRefundDueAt'],
      );
      if (!written) continue;
      this.logger.log({
        msg: 'return refunded',
        orderId,
        returnId,
        refundId: refund.id,
        amountPence: refund.amountPence,
      });
      this.steps.inc({ status: 'Refunded' });
      this.outbox.relaySoon(orderId);
      return written;
    }
    throw new ConflictException(RETURN_MESSAGES.busy);
  }

  /**
   * Keeps why a refund was not made on the Received return (for the admin), counts the try, and sets when the retry
   * tries again (later after each failed try: refundRetryDelay).
   */
  private async refundFailed(orderId: string, returnId: string, reason: string): Promise<LeanOrder | null> {
    for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
      const order = await this.read(orderId);
      const ret = order?.returns?.find((r) => r._id === returnId);
      if (!order || !ret || ret.status !== 'Received') return order;
      const tries = (ret.refundAttempts ?? 0) + 1;
      const returns = order.returns!.map((r) =>
        r._id === returnId ? { ...r, refundError: reason, refundAttempts: tries } : r,
      );
      const nextTry = new Date(Date.now() + refundRetryDelay(tries, this.config.REFUND_TIMEOUT_MS));
      const written = await this.orders
        .findOneAndUpdate(
          this.versionFilter(order),
          { $set: { returns, returnsVersion: (order.returnsVersion ?? 0) + 1, returnRefundDueAt: nextTry } },
          { new: true },
        )
        .lean<LeanOrder>()
        .exec();
      if (written) return written;
    }
    return this.read(orderId);
  }

  /**
   * The refund retry (ReturnRefunds, every REFUND_CHECK_MS): the orders with a Received return whose refund is not
   * made and due to be tried again, those due longest first (so refunds refused for good never hold back the others).
   * Resolves to the refunds made.
   */
  async retryRefunds(now = Date.now()): Promise<number> {
    const due = await this.orders
      .find({ returnRefundDueAt: { $lte: new Date(now) } }, { _id: 1, returns: 1 })
      .sort({ returnRefundDueAt: 1 })
      .limit(RETRY_BATCH)
      .lean<Array<Pick<LeanOrder, '_id' | 'returns'>>>()
      .exec();
    let refunded = 0;
    for (const order of due) {
      const orderId = order._id.toHexString();
      for (const ret of (order.returns ?? []).filter((r) => r.status === 'Received')) {
        const after = await this.refund(orderId, ret._id).catch((err: Error) => {
          this.logger.warn({ msg: 'return refund retry failed', orderId, returnId: ret._id, err: err.message });
          return null;
        });
        if (after?.returns?.find((r) => r._id === ret._id)?.status === 'Refunded') refunded++;
      }
      // An order marked with no Received return left (an older write): the mark goes.
      const fresh = await this.read(orderId);
      if (fresh && !fresh.returns?.some((r) => r.status === 'Received') && fresh.returnRefundDueAt)
        await this.orders.updateOne(this.versionFilter(fresh), { $unset: { returnRefundDueAt: 1 } }).exec();
    }
    return refunded;
  }

  /** The admin's queue: returns (optionally of one status), newest first, with their orders' numbers and buyers. */
  async queue(status?: ReturnStatus): Promise<AdminReturnJson[]> {
    if (status !== undefined && !RETURN_STATUSES.includes(status))
      throw new BadRequestException(`Invalid status: one of ${RETURN_STATUSES.join(', ')}`);
    const orders = await this.orders
      .find({ returnsAt: { $exists: true } }, { outbox: 0 })
      .sort({ returnsAt: -1, _id: -1 })
      .limit(QUEUE_ORDERS)
      .lean<LeanOrder[]>()
      .exec();
    return orders
      .flatMap((o) => (o.returns ?? []).map((r) => ({ o, r })))
      .filter(({ r }) => !status || r.status === status)
      .sort((a, b) => new Date(b.r.createdAt).getTime() - new Date(a.r.createdAt).getTime())
      .map(({ o, r }) => toAdminReturnJson(o, r));
  }

  private read(orderId: string): Promise<LeanOrder | null> {
    return this.orders.findById(orderId, { outbox: 0 }).lean<LeanOrder>().exec();
  }

  private versionFilter(order: LeanOrder): FilterQuery<Order> {
    return {
      _id: order._id,
      returnsVersion: order.returnsVersion === undefined ? { $exists: false } : order.returnsVersion,
    };
  }

  /**
   * The one write of a change of the order's returns, conditional on `returnsVersion` as read: the returns, the step
   * in the status history (appended), its event in the outbox (appended). Null when another change won.
   */
  private async write(
    order: LeanOrder,
    returns: OrderReturn[],
    entry: StatusEntry,
    events: OutboxEntry[],
    now: Date,
    set: Partial<Pick<Order, 'returnRefundDueAt'>> = {},
    unset: Array<'returnRefundDueAt'> = [],
  ): Promise<LeanOrder | null> {
    // An order from before the history was kept stores the history its JSON showed, then this step.
    const stored = !!order.statusHistory?.length;
    const update: UpdateQuery<Order> = {
      $set: {
        returns,
        returnsVersion: (order.returnsVersion ?? 0) + 1,
        returnsAt: now,
        outboxPending: true,
        ...set,
        ...(stored ? {} : { statusHistory: [...statusHistoryOf(order), entry] }),
      },
      $push: { outbox: { $each: events }, ...(stored ? { statusHistory: entry } : {}) },
      ...(unset.length ? { $unset: Object.fromEntries(unset.map((k) => [k, 1])) } : {}),
    };
    return this.orders.findOneAndUpdate(this.versionFilter(order), update, { new: true }).lean<LeanOrder>().exec();
  }
}
