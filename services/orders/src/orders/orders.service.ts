import {
  BadRequestException,
  ConflictException,
  HttpException,
  Injectable,
  Logger,
  NotFoundException,
  OnModuleInit,
  ServiceUnavailableException,
} from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  ORDER_MESSAGES,
  RETURN_MESSAGES,
  type CreateOrderRequest,
  type CreateOrderResponse,
  type OrderJson,
  type OrderStatus,
  type RefundOrderPaymentResponse,
} from '@shop/contracts';
import { indexesBuilt, isDuplicateKeyError, Metrics, type AuthUser, type Counter } from '@shop/nest-common';
import { mongo, Types, type FilterQuery, type Model, type UpdateQuery } from 'mongoose';
import { Readable } from 'node:stream';
import { CheckoutPayments } from '../checkout/checkout-payments';
import { OrdersConfig } from '../config/orders.config';
import { OrderLocks } from './order-locks';
import { recordRemoval } from './order-removals';
import { cancelledEvent, placedEvent, statusChangedEvent } from './order-events';
import { statusChange, statusHistoryOf, type StatusEntry } from './order-status';
import type { StoredTracking } from './order-tracking';
import { forBuyer, toOrderJson } from './order.mapper';
import { customerKeys, NEWEST_FIRST, Order, ORDER_PROJECTION, type LeanOrder } from './order.schema';
import { OrdersOutbox } from './orders-outbox';

/** Orders read from the database per round trip when streaming the list of all orders. */
const LIST_BATCH_SIZE = 100;
/** The streamed list goes out in pieces of about this many characters, not one write per order. */
const LIST_CHUNK_CHARS = 64 * 1024;

/** `[order,order,…]` in pieces of about LIST_CHUNK_CHARS, the first order already read; closes the cursor. */
async function* jsonArrayChunks(
  first: LeanOrder | null,
  rest: AsyncIterable<LeanOrder> & { close(): Promise<unknown> },
): AsyncGenerator<string> {
  try {
    if (!first) {
      yield '[]';
      return;
    }
    let chunk = `[${JSON.stringify(toOrderJson(first))}`;
    for await (const order of rest) {
      chunk += `,${JSON.stringify(toOrderJson(order))}`;
      if (chunk.length >= LIST_CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
    }
    yield `${chunk}]`;
  } finally {
    await rest.close().catch(() => undefined);
  }
}

/** What the order's lock must outlive besides the refund: reading and writing the order. */
const LOCK_MARGIN_MS = 5000;

/** The admin who changes an order, as the token names them. */
export interface ChangedBy {
  _id: string;
  name: string;
}

type Refunded = Extract<RefundOrderPaymentResponse, { refunded: true }>;

export const EVENTS_PENDING =
  "The order's events have not reached the message broker yet, so it cannot be removed now. Please try again shortly";

/**
 * The orders' use cases. An order is made once per paid checkout: the unique `checkoutId` decides, whatever
 * races (FerretDB enforces unique indexes atomically, and nothing else). Each fact worth announcing —
 * placed, every status change, cancelled — is stored in the order's outbox in the same write as the change,
 * with a stable event id, and relayed from there (OrdersOutbox).
 */
/** The `migrations` record of backfillRefundPendingAt. */
const REFUND_PENDING_AT_MIGRATION = 'orders.refund-pending-at';

@Injectable()
export class OrdersService implements OnModuleInit {
  private readonly logger = new Logger(OrdersService.name);
  private readonly placed: Counter;

  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    private readonly locks: OrderLocks,
    private readonly outbox: OrdersOutbox,
    private readonly checkout: CheckoutPayments,
    private readonly config: OrdersConfig,
    metrics: Metrics,
  ) {
    this.placed = metrics.counter(
      'shop_orders_placed_total',
      'Orders placed (one per paid checkout; a repeated request counts once)',
    );
  }

  /** The unique index on checkoutId must exist before the first create relies on it. */
  async onModuleInit(): Promise<void> {
    await indexesBuilt([this.orders]);
  }

  /**
   * PATTERNS.orders.createOrder. The order and its `orders.order.placed` event are one insert; a second
   * call for the same checkout (a retry, a double click, a race) finds the first one's order and answers it
   * with `created: false`, announcing nothing. `placedBefore` looks for it first.
   */
  async createFromCheckout(req: CreateOrderRequest): Promise<CreateOrderResponse> {
    if (req.subtotalPence !== undefined && req.subtotalPence - (req.discount?.amountPence ?? 0) !== req.totalPence)
      throw new BadRequestException('totalPence must be subtotalPence less the discount');
    if (req.placedBefore) {
      const existing = await this.placedFor(req.checkoutId);
      if (existing) return { order: toOrderJson(existing), created: false };
    }
    const _id = new Types.ObjectId();
    const orderId = _id.toHexString();
    const placedAt = new Date();
    const outbox = [placedEvent(orderId, req, placedAt)];
    let order: LeanOrder;
    try {
      const doc = await this.orders.create({
        _id,
        user: req.user,
        ...customerKeys(req.user),
        checkoutId: req.checkoutId,
        orderItems: req.orderItems,
        shippingAddress: req.shippingAddress,
        totalPence: req.totalPence,
        ...(req.subtotalPence !== undefined ? { subtotalPence: req.subtotalPence } : {}),
        ...(req.discount ? { discount: req.discount } : {}),
        paidAt: new Date(req.paidAt),
        paymentDetails: req.paymentDetails,
        statusHistory: [{ status: 'Processing', at: placedAt }],
        createdAt: placedAt,
        outbox,
        outboxPending: true,
      });
      order = doc.toObject<LeanOrder>();
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const existing = await this.placedFor(req.checkoutId);
      if (!existing) throw err;
      return { order: toOrderJson(existing), created: false };
    }
    this.logger.log({ msg: 'order placed', orderId, checkoutId: req.checkoutId, userId: req.user._id });
    this.placed.inc();
    this.outbox.relaySoon(orderId, outbox);
    return { order: toOrderJson(order), created: true };
  }

  private placedFor(checkoutId: string): Promise<LeanOrder | null> {
    return this.orders.findOne({ checkoutId }, ORDER_PROJECTION).lean<LeanOrder>().exec();
  }

  async listMine(userId: string): Promise<OrderJson[]> {
    return (await this.list({ 'user._id': userId })).map(forBuyer);
  }

  /**
   * Every order, newest first, as the text of one JSON array, streamed a batch of orders at a time: the list of all
   * orders grows with the shop, the memory answering it does not. The first batch is read before this resolves, so
   * a database that is away still fails the request with a 503 (once the answer has begun, a failure can only cut
   * the connection, which the client sees as an error, never as a shorter list).
   */
  async streamAll(): Promise<Readable> {
    const cursor = this.orders
      .find({}, ORDER_PROJECTION)
      .sort(NEWEST_FIRST)
      .lean<LeanOrder>()
      .cursor({ batchSize: LIST_BATCH_SIZE });
    let first: LeanOrder | null;
    try {
      first = await cursor.next();
    } catch (err) {
      await cursor.close().catch(() => undefined);
      throw err;
    }
    return Readable.from(jsonArrayChunks(first, cursor), { objectMode: false });
  }

  /** The buyer's own order, or any order for an admin; anyone else is told it does not exist. */
  async findVisibleTo(caller: AuthUser, id: string): Promise<OrderJson> {
    const order = await this.orders.findById(id, ORDER_PROJECTION).lean<LeanOrder>().exec();
    if (!order || (caller.role !== 'admin' && order.user._id !== caller.id)) {
      throw new NotFoundException(ORDER_MESSAGES.notFound);
    }
    return caller.role === 'admin' ? toOrderJson(order) : forBuyer(toOrderJson(order));
  }

  /**
   * An admin sets the status (rules in statusChange). A change appends to the order's status history (with the admin
   * who made it) and stores its status-changed event — and a cancellation its cancelled event — in the same write,
   * under the order's lock; setting the status the order has writes and announces nothing.
   *
   * Cancelling a paid order refunds it first (changeLocked), still under the lock, then writes the cancellation with
   * its refund; a refund PayPal refuses leaves the order as it was, with the refusal in its history, and answers 502.
   */
  async updateStatus(id: string, status: OrderStatus, admin: ChangedBy, tracking?: StoredTracking): Promise<OrderJson> {
    const by = { _id: admin._id, name: admin.name };
    const outcome = await this.locks.withOrder(
      id,
      async () => {
        const current = await this.orders.findById(id).lean<LeanOrder>().exec();
        if (!current) throw new NotFoundException(ORDER_MESSAGES.notFound);
        return this.changeLocked(current, status, by, 'refund', tracking);
      },
      // A cancellation waits for the refund under the lock: it must outlive the wait.
      { ttlMs: this.config.REFUND_TIMEOUT_MS + LOCK_MARGIN_MS },
    );
    if ('refused' in outcome) {
      this.logger.warn({ msg: 'order not cancelled: PayPal refused the refund', orderId: id, reason: outcome.refused });
      throw new HttpException({ statusCode: 502, message: outcome.refused }, 502);
    }
    const { order, changed } = outcome;
    if (changed) {
      this.logger.log({ msg: 'order status set', orderId: id, status: order.status, by: by._id });
      this.outbox.relaySoon(id);
    }
    return toOrderJson(order);
  }

  /**
   * The change itself, under the order's lock. A paid order's cancellation is refunded first: `refund` asks checkout
   * to refund (an admin's request, marked `refundPending` on the order until an answer comes); `check` only asks
   * whether a refund was made (the pending-refund check, after an admin's request got no answer), and cancels if so.
   */
  private async changeLocked(
    current: LeanOrder,
    status: OrderStatus,
    by: ChangedBy,
    mode: 'refund' | 'check',
    tracking?: StoredTracking,
  ): Promise<{ order: LeanOrder; changed: boolean } | { refused: string }> {
    const decidedAt = new Date();
    const change = statusChange(current, status, decidedAt);
    if (!change) {
      // Shipped again with another carrier or number: the tracking corrected (a note for the admins), no event.
      if (
        tracking &&
        (current.tracking?.carrier !== tracking.carrier || current.tracking?.number !== tracking.number)
      ) {
        const note: StatusEntry = {
          status: current.status,
          at: decidedAt,
          by,
          note: ORDER_MESSAGES.trackingChanged(tracking.carrier, tracking.number),
        };
        // Appended to a stored history, so that a return's step stored meanwhile (returns/, no lock) is kept.
        const corrected = current.statusHistory?.length
          ? { $set: { tracking }, $push: { statusHistory: note } }
          : { $set: { tracking, statusHistory: [...statusHistoryOf(current), note] } };
        const updated = await this.orders
          .findByIdAndUpdate(current._id, corrected, { new: true })
          .lean<LeanOrder>()
          .exec();
        return { order: updated!, changed: false };
      }
      return { order: current, changed: false };
    }
    // Its returns are refunded from its payment line by line, and belong to a delivered order.
    if (current.returns?.length) throw new BadRequestException(RETURN_MESSAGES.withReturnsStayDelivered);
    // The money may be back with the buyer already: nothing but the cancel (or the check) may follow until it is known.
    if (current.refundPending && change.status !== 'Cancelled')
      throw new ConflictException(ORDER_MESSAGES.refundPending);
    let refund: Refunded | undefined;
    if (change.status === 'Cancelled' && current.paymentDetails) {
      if (mode === 'refund') await this.setRefundPending(current, { at: decidedAt, by });
      let answer: RefundOrderPaymentResponse;
      try {
        answer = await this.refundPayment(current, mode === 'check');
      } catch (err) {
        // No answer (503, or a refund PayPal did not confirm): it may be made yet, so the mark stays for the check.
        // A definite answer (409: no such payment, 400) made nothing: the mark goes.
        if (err instanceof HttpException && err.getStatus() < 500) await this.setRefundPending(current, undefined);
        if (mode === 'refund' && err instanceof HttpException && err.getStatus() === 503)
          throw new ServiceUnavailableException(ORDER_MESSAGES.refundNotConfirmed);
        throw err;
      }
      if (!answer.refunded) {
        if (mode === 'check') {
          await this.setRefundPending(current, undefined);
          return { order: current, changed: false };
        }
        const note = ORDER_MESSAGES.refundRefused(answer.reason);
        await this.appendNote(current, { status: current.status, at: new Date(), by, note });
        return { refused: note };
      }
      refund = answer;
    }
    // A refunded cancellation took effect once the refund was made.
    const now = refund ? new Date() : decidedAt;
    const entry: StatusEntry = {
      status: change.status,
      at: now,
      by,
      ...(refund ? { refund: { id: refund.refundId, amountPence: refund.amountPence } } : {}),
    };
    // An order from before the history was kept stores the history its JSON showed, then this change.
    const statusHistory = [...statusHistoryOf(current), entry];
    const events = [
      ...(change.status === 'Cancelled' ? [cancelledEvent(current)] : []),
      statusChangedEvent(current, {
        n: statusHistory.length - 1,
        status: change.status,
        at: now,
        ...(refund ? { refund: { amountPence: refund.amountPence, currency: refund.currency } } : {}),
        ...(tracking ? { tracking } : {}),
      }),
    ];
    // The events are appended ($push), never the outbox rewritten: the relay marks entries published without the
    // order's lock, and a rewrite from this read would undo a mark made meanwhile.
    // A stored history gets the entry appended ($push), so that a return's step stored meanwhile (returns/, which
    // takes no lock) is kept; an order from before the history stores the whole history its JSON showed.
    const stored = !!current.statusHistory?.length;
    const $set: UpdateQuery<Order>['$set'] = {
      ...change,
      ...(stored ? {} : { statusHistory }),
      outboxPending: true,
      ...(tracking ? { tracking } : {}),
    };
    // A cancellation settles an earlier cancel whose refund got no answer.
    const $unset = { refundPending: 1, refundPendingAt: 1, ...(change.deliveredAt ? {} : { deliveredAt: 1 }) };
    const updated = await this.orders
      .findByIdAndUpdate(
        current._id,
        { $set, $unset, $push: { outbox: { $each: events }, ...(stored ? { statusHistory: entry } : {}) } },
        { new: true },
      )
      .lean<LeanOrder>()
      .exec();
    return { order: updated!, changed: true };
  }

  /**
   * The pending-refund check (PendingRefunds, every REFUND_CHECK_MS): an admin's cancel whose refund got no answer
   * in time left the order paid and marked. Checkout is asked — without refunding anything — whether the refund was
   * made (its record, or PayPal's record of the order): if so the order is cancelled with it, in the admin's name,
   * as their retry would have; if not, the mark goes and the order stays as it is. Returns the orders cancelled.
   */
  async checkPendingRefunds(now = Date.now()): Promise<number> {
    const marked = await this.orders
      .find({ refundPendingAt: { $lt: new Date(now - this.config.REFUND_TIMEOUT_MS) } }, { _id: 1 })
      .limit(50)
      .lean<Array<{ _id: Types.ObjectId }>>()
      .exec();
    let cancelled = 0;
    for (const { _id } of marked) {
      const id = _id.toHexString();
      const outcome = await this.locks
        .withOrder(
          id,
          async () => {
            const current = await this.orders.findById(id).lean<LeanOrder>().exec();
            if (!current?.refundPending) return undefined;
            if (current.status === 'Cancelled' || current.status === 'Delivered') {
              await this.setRefundPending(current, undefined);
              return undefined;
            }
            return this.changeLocked(current, 'Cancelled', current.refundPending.by, 'check');
          },
          { ttlMs: this.config.REFUND_TIMEOUT_MS + LOCK_MARGIN_MS },
        )
        .catch((err: Error) => {
          this.logger.warn({ msg: 'pending refund not checked yet', orderId: id, err: err.message });
          return undefined;
        });
      if (outcome && 'changed' in outcome && outcome.changed) {
        this.logger.warn({ msg: 'order cancelled: its refund was made after the admin stopped waiting', orderId: id });
        this.outbox.relaySoon(id);
        cancelled++;
      }
    }
    return cancelled;
  }

  /**
   * Checkout refunds the order's payment in full: once, however often asked — two admins at once, a retry after a
   * timeout — since it keeps one refund per payment and asks PayPal with one request id. A 503 (checkout or PayPal
   * away, too slow) leaves the order as it is: asking again answers the refund if it was made meanwhile.
   */
  private async refundPayment(order: LeanOrder, onlyIfMade: boolean): Promise<RefundOrderPaymentResponse> {
    const orderId = String(order._id);
    const answer = await this.checkout.refund({
      orderId,
      checkoutId: order.checkoutId,
      paypalOrderId: order.paymentDetails!.id,
      captureId: order.paymentDetails!.captureId,
      ...(onlyIfMade ? { onlyIfMade } : {}),
    });
    this.logger.log({
      msg: answer.refunded
        ? 'order payment refunded'
        : onlyIfMade
          ? 'order payment not refunded'
          : 'order refund refused',
      orderId,
      ...(answer.refunded ? { refundId: answer.refundId, amountPence: answer.amountPence } : { reason: answer.reason }),
    });
    return answer;
  }

  /** A note in the order's history, its status unchanged (nothing to announce); it settles a pending refund. */
  private async appendNote(current: LeanOrder, entry: StatusEntry): Promise<void> {
    await this.orders
      .updateOne(
        { _id: current._id },
        current.statusHistory?.length
          ? { $push: { statusHistory: entry }, $unset: { refundPending: 1, refundPendingAt: 1 } }
          : {
              $set: { statusHistory: [...statusHistoryOf(current), entry] },
              $unset: { refundPending: 1, refundPendingAt: 1 },
            },
      )
      .exec();
  }

  /**
   * Orders marked before `refundPendingAt` existed get it (once per database: a `migrations` record says it was done),
   * so that the pending-refund check, which asks for that field, finds them. Resolves to how many were marked.
   */
  async backfillRefundPendingAt(): Promise<number> {
    const migrations = this.orders.db.collection<{ _id: string; at: Date }>('migrations');
    if (await migrations.findOne({ _id: REFUND_PENDING_AT_MIGRATION })) return 0;
    // A question no index answers on the development FerretDB: it reads every order, longer than the service's
    // 2.5 s socket timeout allows at 100,000 of them, so it is asked on a connection of its own without that timeout.
    const client = await mongo.MongoClient.connect(this.config.MONGO_URI, { socketTimeoutMS: 0, maxPoolSize: 1 });
    let marked: Array<Pick<LeanOrder, '_id' | 'refundPending'>>;
    try {
      marked = await client
        .db(this.orders.db.name)
        .collection<LeanOrder>(this.orders.collection.collectionName)
        .find(
          { refundPending: { $exists: true }, refundPendingAt: { $exists: false } },
          { projection: { _id: 1, refundPending: 1 } },
        )
        .toArray();
    } finally {
      await client.close();
    }
    for (const order of marked) {
      await this.locks.withOrder(order._id.toHexString(), async () => {
        const current = await this.orders.findById(order._id, { refundPending: 1 }).lean<LeanOrder>().exec();
        if (current?.refundPending)
          await this.orders
            .updateOne({ _id: order._id }, { $set: { refundPendingAt: current.refundPending.at } })
            .exec();
      });
    }
    await migrations.insertOne({ _id: REFUND_PENDING_AT_MIGRATION, at: new Date() }).catch((err: unknown) => {
      if (!isDuplicateKeyError(err)) throw err; // another replica recorded it first
    });
    return marked.length;
  }

  /** Marks (or, given nothing, unmarks) a cancel whose refund is asked for. Under the order's lock. */
  private async setRefundPending(current: LeanOrder, pending: { at: Date; by: ChangedBy } | undefined): Promise<void> {
    await this.orders
      .updateOne(
        { _id: current._id },
        pending
          ? { $set: { refundPending: pending, refundPendingAt: pending.at } }
          : { $unset: { refundPending: 1, refundPendingAt: 1 } },
      )
      .exec();
  }

  /**
   * Removes an order, but never an event with it: events still waiting in its outbox are published first
   * (outside the lock, which the relay takes itself to mark them published), and if the broker cannot take
   * them now the removal is refused with a 503. The removal is recorded (order-removals.ts) for the dashboard.
   */
  async remove(id: string): Promise<void> {
    try {
      await this.outbox.relayNow(id);
    } catch (err) {
      this.logger.warn({ msg: 'order not removed: its events are pending', orderId: id, err: (err as Error).message });
      throw new ServiceUnavailableException(EVENTS_PENDING);
    }
    await this.locks.withOrder(id, async () => {
      const order = await this.orders
        .findById(id, { outbox: 1, createdAt: 1 })
        .lean<Pick<LeanOrder, '_id' | 'outbox' | 'createdAt'>>()
        .exec();
      if (!order) throw new NotFoundException(ORDER_MESSAGES.notFound);
      // An event stored since the relay above (a cancellation a moment ago) must go out first too.
      if (order.outbox.some((e) => !e.publishedAt)) throw new ServiceUnavailableException(EVENTS_PENDING);
      // The dashboard's day of the order learns of the removal from this record (the order leaves nothing else).
      await recordRemoval(this.orders.db, order);
      await this.orders.deleteOne({ _id: order._id }).exec();
    });
    this.logger.log({ msg: 'order removed', orderId: id });
  }

  private async list(filter: FilterQuery<Order>): Promise<OrderJson[]> {
    const docs = await this.orders.find(filter, ORDER_PROJECTION).sort(NEWEST_FIRST).lean<LeanOrder[]>().exec();
    return docs.map(toOrderJson);
  }
}
