import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import {
  CARRIERS,
  ORDER_STATUSES,
  SHIPPING_METHOD,
  type Carrier,
  type OrderStatus,
  type ReturnStatus,
} from '@shop/contracts';
import { OutboxEntrySchema, type OutboxEntry } from '@shop/nest-common';
import type { Types } from 'mongoose';
import { OrderReturnSchema, type OrderReturn } from '../returns/return.schema';

/** The buyer as they were when they ordered: a copy, so the order still shows them after the user is deleted. */
@Schema({ _id: false, versionKey: false })
export class OrderUser {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) name!: string;
  @Prop() email?: string;
}

/** A line as the checkout priced it (integer pence): what was bought, whatever the catalogue says later. */
@Schema({ _id: false, versionKey: false })
export class OrderLine {
  @Prop({ required: true }) productId!: string;
  @Prop({ required: true }) name!: string;
  @Prop({ default: '' }) image!: string;
  @Prop({ required: true, min: 0 }) pricePence!: number;
  @Prop({ required: true, min: 1 }) quantity!: number;
  @Prop({ default: '' }) size!: string;
  @Prop({ default: '' }) color!: string;
  /** The variant's SKU (its size × colour) when it was bought; '' for orders placed before variants. */
  @Prop({ default: '' }) sku!: string;
}

@Schema({ _id: false, versionKey: false })
export class OrderShippingAddress {
  @Prop({ required: true }) firstName!: string;
  @Prop({ required: true }) lastName!: string;
  @Prop({ required: true }) address!: string;
  @Prop({ required: true }) city!: string;
  @Prop({ required: true }) postalCode!: string;
  @Prop({ required: true }) country!: string;
  @Prop({ required: true }) phone!: string;
}

/** What checkout kept of the PayPal payment (ids, statuses, payer, amount), never PayPal's whole answer. */
@Schema({ _id: false, versionKey: false })
export class OrderPaymentDetails {
  @Prop({ type: String, required: true }) provider!: 'paypal';
  @Prop({ required: true }) id!: string;
  @Prop({ required: true }) status!: string;
  @Prop({ required: true }) captureId!: string;
  @Prop({ required: true }) captureStatus!: string;
  @Prop({ required: true }) amount!: string;
  @Prop({ required: true }) currency!: string;
  @Prop() payerEmail?: string;
  @Prop() payerId?: string;
  @Prop() capturedAt?: string;
}

/** The discount code the order was placed with, and what it took off (pence). */
@Schema({ _id: false, versionKey: false })
export class OrderDiscount {
  @Prop({ required: true }) code!: string;
  @Prop({ required: true, min: 0 }) amountPence!: number;
}

/** The admin who changed an order, as their token named them. */
@Schema({ _id: false, versionKey: false })
export class OrderChangedBy {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) name!: string;
}

/** The refund a cancellation made: PayPal's refund id and what it gave back (pence). */
@Schema({ _id: false, versionKey: false })
export class OrderRefund {
  @Prop({ required: true }) id!: string;
  @Prop({ required: true, min: 0 }) amountPence!: number;
}

/** The parcel an order was shipped as: its carrier and tracking number (normalised; the page is derived). */
@Schema({ _id: false, versionKey: false })
export class OrderTracking {
  @Prop({ type: String, required: true, enum: CARRIERS }) carrier!: Carrier;
  @Prop({ required: true }) number!: string;
}

/** Money PayPal gave back outside the shop (its dashboard, a chargeback), as checkout reported it from a webhook. */
@Schema({ _id: false, versionKey: false })
export class OrderExternalRefund {
  @Prop({ required: true }) id!: string;
  @Prop({ type: String, required: true, enum: ['refund', 'reversal'] }) kind!: 'refund' | 'reversal';
  @Prop({ required: true, min: 0 }) amountPence!: number;
  @Prop({ required: true }) currency!: string;
  /** When PayPal made it. */
  @Prop({ required: true }) at!: Date;
}

/** A cancel waiting for its refund's answer: when it was asked, and by whom. */
@Schema({ _id: false, versionKey: false })
export class RefundPending {
  @Prop({ required: true }) at!: Date;
  @Prop({ type: SchemaFactory.createForClass(OrderChangedBy), required: true }) by!: OrderChangedBy;
}

/**
 * An entry of the order's status history (OrderStatusEntryJson): from `at` on, the order was `status`; `by` the
 * admin who made the change (absent for the placing), `refund` the refund it made, `note` something that happened
 * without a change (`status` then repeats the order's).
 */
@Schema({ _id: false, versionKey: false })
export class OrderStatusEntry {
  @Prop({ type: String, required: true, enum: ORDER_STATUSES }) status!: OrderStatus;
  @Prop({ required: true }) at!: Date;
  @Prop({ type: SchemaFactory.createForClass(OrderChangedBy) }) by?: OrderChangedBy;
  @Prop({ type: SchemaFactory.createForClass(OrderRefund) }) refund?: OrderRefund;
  @Prop() note?: string;
  /** A step of one of the order's returns (the order's status unchanged): which, its status, amount, note. */
  @Prop({ type: Object }) return?: { id: string; status: ReturnStatus; amountPence?: number; note?: string };
}

/**
 * An order: made once per paid checkout (unique `checkoutId`), then run by admins. Money is integer pence.
 *
 * Its events travel in its own `outbox`, written in the same single-document write as the change they
 * announce (FerretDB has no transactions), and relayed until the broker confirms (`outboxPending` marks
 * documents with entries still to go). An admin's status change and a removal run under the order's Redis lock
 * (OrderLocks): a cancellation is a refund at checkout, then the order's write.
 */
@Schema({ collection: 'orders', timestamps: true, versionKey: false })
export class Order {
  @Prop({ type: SchemaFactory.createForClass(OrderUser), required: true }) user!: OrderUser;
  /**
   * The buyer's name and email lower-cased (customerKeys), top-level and indexed, so that the admin's search finds
   * them by index (a whole email by equality, the beginning of either by a range) rather than by a regex scan.
   * Absent from orders placed before the search: OrderSearchKeysBackfill adds them at start.
   */
  @Prop() customerName?: string;
  @Prop() customerEmail?: string;

  /**
   * The idempotency key: one order per checkout, whatever races. Unique, and so required
   * (docs/pitfalls.md#unique-indexes-on-ferretdb).
   */
  @Prop({ required: true, unique: true }) checkoutId!: string;

  @Prop({ type: [SchemaFactory.createForClass(OrderLine)], required: true }) orderItems!: OrderLine[];
  @Prop({ type: SchemaFactory.createForClass(OrderShippingAddress), required: true })
  shippingAddress!: OrderShippingAddress;

  @Prop({ type: String, required: true, default: 'PayPal' }) paymentMethod!: 'PayPal';
  @Prop({ required: true, default: SHIPPING_METHOD }) shippingMethod!: string;
  /** What was paid: the subtotal less the discount. */
  @Prop({ required: true, min: 0 }) totalPence!: number;
  /** Before the discount; absent from orders placed before discount codes (then it is totalPence). */
  @Prop({ min: 0 }) subtotalPence?: number;
  @Prop({ type: SchemaFactory.createForClass(OrderDiscount) }) discount?: OrderDiscount;

  /** An order only exists once its checkout is paid. */
  @Prop({ required: true, default: true }) isPaid!: boolean;
  @Prop({ required: true }) paidAt!: Date;
  @Prop({ type: String, required: true, default: 'paid' }) paymentStatus!: 'paid';
  @Prop({ type: SchemaFactory.createForClass(OrderPaymentDetails) }) paymentDetails?: OrderPaymentDetails;

  @Prop({ required: true, default: false }) isDelivered!: boolean;
  @Prop() deliveredAt?: Date;
  @Prop({ type: String, required: true, enum: ORDER_STATUSES, default: 'Processing' }) status!: OrderStatus;
  /**
   * Append-only, oldest first, written in the same write as the status (and the status-changed event). Absent
   * from orders placed before it was kept: they are not rewritten, their first change stores the history their
   * JSON showed (`statusHistoryOf`) and appends to it.
   */
  @Prop({ type: [SchemaFactory.createForClass(OrderStatusEntry)], default: undefined })
  statusHistory?: OrderStatusEntry[];

  /**
   * An admin's cancel whose refund got no answer in time (checkout or PayPal slow or away): the refund may be made
   * yet. The pending-refund check asks checkout whether it was, and cancels the order if so; any answer clears it.
   */
  @Prop({ type: SchemaFactory.createForClass(RefundPending) }) refundPending?: RefundPending;

  /**
   * `refundPending.at`, at the top level and only while a refund is pending: what the pending-refund check asks for
   * (an indexed range that reads only the marked orders, on MongoDB and on the development FerretDB alike, whose
   * patches push ranges down on top-level fields only).
   */
  @Prop() refundPendingAt?: Date;

  /**
   * The order's returns (returns/), oldest first. Every change of them is one write conditional on `returnsVersion`
   * as it was read (no lock): two changes at once cannot both apply, so the returns never claim more units than were
   * bought or refund more than was paid, and each step happens once.
   */
  @Prop({ type: [OrderReturnSchema], default: undefined }) returns?: OrderReturn[];
  @Prop() returnsVersion?: number;
  /** When a return was last asked for or changed: the admin's returns queue, newest first (top-level, indexed). */
  @Prop() returnsAt?: Date;
  /** While a received return's refund is not made: when the refund retry tries it next (ReturnsService). */
  @Prop() returnRefundDueAt?: Date;

  /** Set when the order is marked Shipped with its parcel's carrier and tracking number (and when corrected). */
  @Prop({ type: SchemaFactory.createForClass(OrderTracking) }) tracking?: OrderTracking;

  /** Refunds and reversals made outside the shop, each once by PayPal's id (payments/payment-reversals.ts). */
  @Prop({ type: [SchemaFactory.createForClass(OrderExternalRefund)], default: undefined })
  externalRefunds?: OrderExternalRefund[];
  /** When the last of them was recorded: the dashboard's flagged orders, newest first (a sparse index). */
  @Prop() externalRefundedAt?: Date;

  @Prop({ type: [OutboxEntrySchema], default: [] }) outbox!: OutboxEntry[];
  @Prop({ required: true, default: false, index: true }) outboxPending!: boolean;

  createdAt!: Date;
  updatedAt!: Date;
}

export type LeanOrder = Order & { _id: Types.ObjectId };
export const OrderSchema = SchemaFactory.createForClass(Order);
// A customer's orders and the admin's lists, newest first.
OrderSchema.index({ 'user._id': 1, createdAt: -1 });
OrderSchema.index({ createdAt: -1 });
// The dashboard's catch-up: the orders changed since its watermark (stats/sales-days.ts), a range on updatedAt.
OrderSchema.index({ updatedAt: 1 });
// The admin's list (admin-orders/): each filter with the default order, and each other sort (ties by _id).
OrderSchema.index({ status: 1, createdAt: -1 });
OrderSchema.index({ isPaid: 1, createdAt: -1 });
OrderSchema.index({ totalPence: 1, _id: 1 });
// The search (a range on the name or the email, newest first) and the sort by customer (name, then _id). The trailing
// createdAt changes neither order; it puts a search's sort key in the index, where the dev FerretDB reads it instead
// of parsing every match's JSON (tools/ferretdb/patches/sqlite-sort-pushdown.json; docs/performance.md).
OrderSchema.index({ customerName: 1, _id: 1, createdAt: -1 });
OrderSchema.index({ customerEmail: 1, _id: 1, createdAt: -1 });
/** The indexes the two above replace: dropped at start (search-keys.backfill.ts), or every write would keep both. */
export const REPLACED_ORDER_INDEXES = ['customerName_1__id_1', 'customerEmail_1__id_1'] as const;

// The dashboard's orders whose payment PayPal gave back outside the shop (only those orders have the field).
OrderSchema.index({ externalRefundedAt: -1 }, { sparse: true });

// The pending-refund check's question: cancels whose refund got no answer (only those orders have the field).
OrderSchema.index({ refundPendingAt: 1 }, { sparse: true });
// The admin's returns queue and the refund retry of received returns (only orders with returns have them).
OrderSchema.index({ returnsAt: -1 }, { sparse: true });
OrderSchema.index({ returnRefundDueAt: 1 }, { sparse: true });

/** The lower-cased buyer fields the admin's search reads (customerName, customerEmail). */
export function customerKeys(user: { name: string; email?: string }): Pick<Order, 'customerName' | 'customerEmail'> {
  return {
    customerName: user.name.trim().toLowerCase(),
    ...(user.email ? { customerEmail: user.email.trim().toLowerCase() } : {}),
  };
}

/** Newest first; the id breaks ties between orders of the same millisecond. */
export const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

/** Reads that answer the API leave the outbox behind. */
export const ORDER_PROJECTION = {
  outbox: 0,
  outboxPending: 0,
  refundPending: 0,
  refundPendingAt: 0,
  returnsVersion: 0,
  returnRefundDueAt: 0,
  externalRefundedAt: 0,
  customerName: 0,
  customerEmail: 0,
} as const;
