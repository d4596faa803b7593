import {
  BadRequestException,
  ConflictException,
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
  CHECKOUT_MESSAGES,
  MAX_CART_LINE_QUANTITY,
  PATTERNS,
  toPence,
  toPounds,
  type CheckoutJson,
  type CheckoutQuoteJson,
  type CreateOrderResponse,
  type ExpiredHoldResponse,
  type LineRequest,
  type PaymentDetailsJson,
  type PricedLine,
  type PriceLinesResponse,
  type PublicUser,
  type ReserveStockRequest,
  type ReserveStockResponse,
} from '@shop/contracts';
import { indexesBuilt, isDuplicateKeyError, Metrics, RpcClient, type AuthUser, type Counter } from '@shop/nest-common';
import { Types, type Model } from 'mongoose';
import { CheckoutConfig } from '../config/checkout.config';
import { CATALOG, IDENTITY, ORDERS } from '../peers/peers';
import { PayPalClient } from '../paypal/paypal.client';
import { verifyPayPalOrder } from '../paypal/paypal-verification';
import { DiscountsService, type Applied, type Customer } from '../discounts/discounts.service';
import { toCheckoutJson, toCreateOrderRequest } from './checkout.mapper';
import { CheckoutLocks } from './checkout-locks';
import { Checkout, type AppliedDiscount, type Buyer, type CheckoutLine, type LeanCheckout } from './checkout.schema';
import type { CheckoutItemDto, CreateCheckoutDto, PayCheckoutDto, QuoteCheckoutDto } from './dto/checkout.dto';
import { Payment, refundRequestId } from './payment.schema';

type LeanPayment = Payment & { _id: Types.ObjectId };

/** How long identity may take to tell who the buyer is before the token's name is used. */
const BUYER_LOOKUP_MS = 1500;

/**
 * The checkout, end to end (docs/architecture.md#a-purchase-step-by-step): priced and reserved by the catalog, paid
 * only when PayPal itself confirms the capture, finalized into exactly one order by the orders service.
 */
@Injectable()
export class CheckoutsService implements OnModuleInit {
  private readonly logger = new Logger(CheckoutsService.name);
  private readonly created: Counter<'price_adjusted'>;
  private readonly paymentChecks: Counter<'outcome'>;

  constructor(
    @InjectModel(Checkout.name) private readonly checkouts: Model<Checkout>,
    @InjectModel(Payment.name) private readonly payments: Model<Payment>,
    @Inject(CATALOG) private readonly catalog: RpcClient,
    @Inject(ORDERS) private readonly orders: RpcClient,
    @Inject(IDENTITY) private readonly identity: RpcClient,
    private readonly locks: CheckoutLocks,
    private readonly discounts: DiscountsService,
    private readonly paypal: PayPalClient,
    private readonly config: CheckoutConfig,
    metrics: Metrics,
  ) {
    this.created = metrics.counter(
      'shop_checkouts_created_total',
      'Checkouts created (priced, stock held), by whether the server total replaced the client total',
      ['price_adjusted'],
    );
    this.paymentChecks = metrics.counter(
      'shop_payments_total',
      'Payments checked with PayPal: verified (completed, captured, right amount) or refused',
      ['outcome'],
    );
  }

  /** The unique index on payments must exist before the first payment relies on it. */
  async onModuleInit(): Promise<void> {
    await indexesBuilt([this.payments, this.checkouts]);
  }

  // ------------------------------------------------------------------ create

  /**
   * What a checkout of these lines would charge now, with the code if one is given (a 400 with the shopper's
   * message when it does not apply): priced and checked as `create` does, holding nothing.
   */
  async quote(user: AuthUser, dto: QuoteCheckoutDto): Promise<CheckoutQuoteJson> {
    const merged = mergeLines(dto.checkoutItems);
    const [priced, buyer] = await Promise.all([this.price(merged), this.buyer(user)]);
    const subtotalPence = priced.lines.reduce((sum, l) => sum + (l.unitPricePence ?? 0) * l.quantity, 0);
    const applied = dto.discountCode
      ? await this.discounts.check(dto.discountCode, customerOf(buyer), subtotalPence)
      : undefined;
    const discountPence = applied?.amountPence ?? 0;
    return {
      subtotal: toPounds(subtotalPence),
      ...(applied ? { discount: { code: applied.code.code, amount: toPounds(discountPence) } } : {}),
      totalPrice: toPounds(subtotalPence - discountPence),
    };
  }

  /**
   * Holds the stock of every line (the catalog prices them under the products' locks: those prices are the ones
   * charged), checks the discount code on them and holds one use of a limited code, stores the server's subtotal,
   * discount and total. Anything refused holds nothing: a line the catalog cannot sell is named as the shopper
   * numbers it, and a hold made before a refusal is given back.
   */
  async create(user: AuthUser, dto: CreateCheckoutDto): Promise<CheckoutJson> {
    const merged = mergeLines(dto.checkoutItems);
    const id = new Types.ObjectId();
    const checkoutId = id.toHexString();
    const [reserved, buyer] = await Promise.all([
      this.reserve(
        checkoutId,
        merged.map((m) => m.line),
        this.config.RESERVATION_SECONDS,
      ).catch(async (err: unknown) => {
        // No answer (503): a hold may have been made just before the deadline. Nothing else can own it: undo it,
        // without keeping the shopper waiting for that too (a hold nobody releases expires by itself).
        if (err instanceof HttpException && err.getStatus() === 503) void this.releaseQuietly(checkoutId);
        // Refused (nothing held): the shopper is told which of their lines, as the catalog's prices tell it.
        if (err instanceof HttpException && [400, 404, 409].includes(err.getStatus())) await this.price(merged);
        throw err;
      }),
      this.buyer(user),
    ]);
    const customer = customerOf(buyer);
    const held = new Map(reserved.lines.map((l) => [variantKey(l.productId, l.size, l.color), l]));
    const items: CheckoutLine[] = merged.map(({ line }) => {
      const l = held.get(variantKey(line.productId, line.size, line.color));
      // The catalog answers every line it holds; a line it did not (a catalog that merged them otherwise) has its
      // product's name and price from any line of that product.
      const of = l ?? reserved.lines.find((r) => r.productId === line.productId.toLowerCase());
      return {
        productId: line.productId,
        name: of?.name ?? '',
        image: of?.image ?? '',
        pricePence: of?.unitPricePence ?? 0,
        quantity: line.quantity,
        size: line.size ?? '',
        color: line.color ?? '',
        sku: l?.sku ?? '',
      };
    });
    const subtotalPence = items.reduce((sum, l) => sum + l.pricePence * l.quantity, 0);
    const reservationExpiresAt = new Date(reserved.expiresAt);
    let discount: AppliedDiscount | undefined;
    try {
      if (dto.discountCode)
        discount = await this.applyDiscount(
          dto.discountCode,
          customer,
          subtotalPence,
          checkoutId,
          reservationExpiresAt,
        );
    } catch (err) {
      await this.releaseQuietly(checkoutId);
      throw err;
    }
    const totalPence = subtotalPence - (discount?.amountPence ?? 0);
    const priceAdjusted = dto.totalPrice !== undefined && toPence(dto.totalPrice) !== totalPence;
    try {
      const created = await this.checkouts.create({
        _id: id,
        user: buyer,
        checkoutItems: items,
        shippingAddress: { ...dto.shippingAddress },
        paymentMethod: 'PayPal',
        subtotalPence,
        ...(discount ? { discount } : {}),
        totalPence,
        priceAdjusted,
        reservationExpiresAt,
      });
      this.logger.log(
        { checkoutId, userId: user.id, totalPence, priceAdjusted, discountCode: discount?.code },
        'checkout created',
      );
      this.created.inc({ price_adjusted: String(priceAdjusted) });
      return toCheckoutJson(created.toObject() as LeanCheckout);
    } catch (err) {
      await this.releaseQuietly(checkoutId);
      if (discount) await this.discounts.release({ _id: id, user: buyer, discount }).catch(() => undefined);
      throw err;
    }
  }

  /** Checks the code again on the prices held (they may have moved since the quote) and holds one of its uses. */
  private async applyDiscount(
    input: string,
    customer: Customer,
    subtotalPence: number,
    checkoutId: string,
    until: Date,
  ): Promise<AppliedDiscount> {
    const applied: Applied = await this.discounts.check(input, customer, subtotalPence);
    const slots = await this.discounts.hold(applied, customer, checkoutId, until);
    return { codeId: String(applied.code._id), code: applied.code.code, amountPence: applied.amountPence, slots };
  }

  /** The catalog's prices of the lines; the first line it cannot sell is the error, naming the shopper's line. */
  private async price(merged: Array<{ line: LineRequest; number: number }>): Promise<PriceLinesResponse> {
    const priced = await this.catalog.send<PriceLinesResponse>(PATTERNS.catalog.priceLines, {
      lines: merged.map((m) => m.line),
    });
    const problem = priced.lines.findIndex((l) => !l.ok);
    if (problem >= 0) throw lineError(priced.lines[problem], merged[problem]?.number ?? problem + 1);
    return priced;
  }

  // ------------------------------------------------------------------ read

  async get(user: AuthUser, id: string): Promise<CheckoutJson> {
    return toCheckoutJson(await this.findOwned(user.id, id));
  }

  // ------------------------------------------------------------------ pay

  /**
   * Pays the checkout and places its order, in one step, once PayPal confirms the order the client names:
   * completed, captured, for exactly the checkout's total in GBP, and never used for another checkout (the payments
   * collection's unique key). The stock stays held until the order takes it; when it is gone (the hold expired and
   * others bought it) the payment is refunded and the checkout stays unpaid. The order is placed exactly once,
   * keyed by the checkout (orders' unique checkoutId): when orders cannot be reached the checkout is paid all the
   * same, and finalize, or the sweeper of claimed payments, places it.
   */
  async pay(user: AuthUser, id: string, dto: PayCheckoutDto): Promise<CheckoutJson> {
    const paypalOrderId = dto.paymentDetails.id;
    return this.locked(id, async () => {
      const checkout = await this.findOwned(user.id, id);
      if (checkout.isPaid) {
        if (checkout.paymentDetails?.id !== paypalOrderId) throw new ConflictException(CHECKOUT_MESSAGES.alreadyPaid);
        await this.placeOrderOrLeaveIt(checkout); // a retry: the order too, if the first try could not place it
        return toCheckoutJson(checkout);
      }
      const order = await this.paypal.getOrder(paypalOrderId);
      const verification = order
        ? verifyPayPalOrder(order, { pence: checkout.totalPence })
        : { ok: false as const, reason: 'PayPal knows no such order' };
      this.paymentChecks.inc({ outcome: verification.ok ? 'verified' : 'refused' });
      if (!verification.ok) {
        this.logger.warn({ checkoutId: id, paypalOrderId, reason: verification.reason }, 'payment refused');
        throw new HttpException({ statusCode: 402, message: CHECKOUT_MESSAGES.paymentNotVerified }, 402);
      }
      const payment = await this.claim(checkout, verification.details);
      return toCheckoutJson(await this.settle(checkout, payment));
    });
  }

  /** The PayPal order pays this checkout and no other: a unique key decides, whatever races. */
  private async claim(checkout: LeanCheckout, details: PaymentDetailsJson): Promise<LeanPayment> {
    const checkoutId = String(checkout._id);
    try {
      const created = await this.payments.create({
        paypalOrderId: details.id,
        checkoutId,
        userId: checkout.user._id,
        amountPence: checkout.totalPence,
        details,
      });
      return created.toObject() as LeanPayment;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const existing = await this.payments.findOne({ paypalOrderId: details.id }).lean<LeanPayment>().exec();
      // Ours already (a retry after a failure further on) is fine; anyone else's is a reuse.
      if (!existing || existing.checkoutId !== checkoutId || existing.status === 'refunded') {
        this.logger.warn({ checkoutId, paypalOrderId: details.id, usedBy: existing?.checkoutId }, 'payment reused');
        throw new ConflictException(CHECKOUT_MESSAGES.paymentUsed);
      }
      return existing;
    }
  }

  /**
   * Completes a verified, claimed payment: marks the checkout paid, then places its order. The stock is still held
   * unless the hold expired unpaid and the catalog gave it back (`stockReleased`): then the lines are held again,
   * which checks the stock. When the stock or the discount is gone the payment is refunded (409). A 503 (the catalog
   * away or slow) leaves the payment claimed: the shopper's retry, or the sweeper, settles it later. Returns the
   * checkout as it now is.
   */
  private async settle(checkout: LeanCheckout, payment: LeanPayment): Promise<LeanCheckout> {
    const checkoutId = String(checkout._id);
    try {
      await this.discounts.keepForPaid(checkout);
    } catch (err) {
      if (!(err instanceof BadRequestException)) throw err;
      await this.refundUnsold(checkout, payment, err);
    }
    const now = new Date();
    const paid = {
      isPaid: true,
      paidAt: now,
      paymentStatus: 'paid',
      paymentDetails: payment.details,
      updatedAt: now,
    } satisfies Partial<LeanCheckout>;
    // Paid by this payment only if no other paid it and its hold is still there. The checkout's lock bounds pay, but a
    // lock that expired under a stalled pay fences nothing: this write does, as it does the catalog's sweeper, which
    // gives back an expired hold only once the checkout agreed unpaid (expiredHold). updatedAt set here so that the
    // checkout answered is the one stored.
    const marked = await this.checkouts
      .updateOne(
        { _id: checkout._id, isPaid: false, stockReleased: { $ne: true } },
        { $set: paid },
        { timestamps: false },
      )
      .exec();
    let stored: LeanCheckout = { ...checkout, ...paid };
    if (marked.modifiedCount === 0) stored = await this.payAgainstStore(checkout, payment, paid);
    this.logger.log(
      { checkoutId, paypalOrderId: payment.paypalOrderId, captureId: payment.details.captureId },
      'checkout paid',
    );
    await this.placeOrderOrLeaveIt(stored, payment);
    return stored;
  }

  /**
   * The paid write found the checkout otherwise than pay read it: paid meanwhile (by this payment: a retry; by
   * another: refunded, 409), or its hold given back after it expired: the lines are held again (409 and a refund when
   * the stock is gone) and the checkout paid, still only if unpaid.
   */
  private async payAgainstStore(
    checkout: LeanCheckout,
    payment: LeanPayment,
    paid: Partial<LeanCheckout>,
  ): Promise<LeanCheckout> {
    const current = await this.checkouts.findById(checkout._id).lean<LeanCheckout>().exec();
    if (current && !current.isPaid && current.stockReleased) {
      let held: ReserveStockResponse;
      try {
        held = await this.reserve(
          String(checkout._id),
          checkout.checkoutItems.map(toLineRequest),
          this.config.RESERVATION_SECONDS,
        );
      } catch (err) {
        if (!(err instanceof HttpException) || ![400, 404, 409].includes(err.getStatus())) throw err;
        return this.refundUnsold(checkout, payment, err);
      }
      const reservationExpiresAt = new Date(held.expiresAt);
      const { modifiedCount } = await this.checkouts
        .updateOne(
          { _id: checkout._id, isPaid: false },
          { $set: { ...paid, reservationExpiresAt }, $unset: { stockReleased: '' } },
          { timestamps: false },
        )
        .exec();
      if (modifiedCount === 1) return { ...current, ...paid, reservationExpiresAt, stockReleased: undefined };
    }
    const now = current?.isPaid ? current : await this.checkouts.findById(checkout._id).lean<LeanCheckout>().exec();
    if (!now?.isPaid || now.paymentDetails?.id !== payment.paypalOrderId) {
      await this.refund(payment);
      throw new ConflictException(CHECKOUT_MESSAGES.alreadyPaid);
    }
    return now;
  }

  /** The stock or the discount is gone: the discount's hold goes, the payment is refunded, the shopper hears why. */
  private async refundUnsold(checkout: LeanCheckout, payment: LeanPayment, err: Error): Promise<never> {
    await this.discounts.release(checkout);
    await this.refund(payment);
    throw new ConflictException(CHECKOUT_MESSAGES.stockGoneRefunded(err.message.replace(/\.$/, '')));
  }

  /**
   * Places the paid checkout's order (idempotent: orders keys it by the checkout), counts its discount's use and
   * marks its payment captured: money taken has its order. Orders away or slow (a 503), or any other failure, leaves
   * the payment claimed, for finalize or the sweeper of claimed payments to finish; the buyer has paid either way.
   */
  private async placeOrderOrLeaveIt(checkout: LeanCheckout, payment?: LeanPayment): Promise<void> {
    try {
      await this.placeOrder(checkout, payment);
    } catch (err) {
      // The buyer has paid: whatever stopped the order now, finalize or the sweeper finishes it.
      this.logger.warn(
        { checkoutId: String(checkout._id), err: (err as Error).message },
        'paid: order left to finalize',
      );
    }
  }

  /**
   * The paid checkout's order, placed now or before. With the payment (pay, the sweeper), or when this call placed
   * it, what follows the order is done too: its discount use counted and its payment marked captured, each once. A
   * payment still claimed is the sweeper's to finish, so a crash in between is finished there.
   */
  private async placeOrder(
    paid: LeanCheckout,
    payment?: LeanPayment,
    { placedBefore = false } = {},
  ): Promise<CreateOrderResponse> {
    const checkout = paid.user.email ? paid : await this.withBuyerEmail(paid);
    // Idempotent on the checkout id: a repeat, a double click or a retry after a lost answer gets the same order.
    const result = await this.orders.send<CreateOrderResponse>(PATTERNS.orders.createOrder, {
      ...toCreateOrderRequest(checkout),
      ...(placedBefore ? { placedBefore } : {}),
    });
    if (result.created)
      this.logger.log({ checkoutId: String(checkout._id), orderId: result.order._id }, 'order placed');
    if (!result.created && !payment) return result;
    // Counted once (keyed by the checkout's unit of the code), before the payment is marked captured: a failure here
    // leaves the payment claimed, and the sweeper counts it.
    await this.discounts.countUse(checkout, result.order._id);
    await this.payments
      .updateOne(
        payment
          ? { _id: payment._id }
          : { checkoutId: String(checkout._id), paypalOrderId: checkout.paymentDetails?.id ?? null },
        { $set: { status: 'captured' } },
      )
      .exec();
    return result;
  }

  /**
   * Settles payments PayPal confirmed whose checkout was never marked paid (a timeout or a crash between the
   * claim and the end of pay): the money was taken, so the checkout becomes paid, or the payment is refunded.
   */
  async settleStalePayments(now = Date.now()): Promise<number> {
    const stale = await this.payments
      .find({ status: 'claimed', createdAt: { $lt: new Date(now - this.config.FINALIZE_GRACE_MS) } })
      .limit(50)
      .lean<LeanPayment[]>()
      .exec();
    let settled = 0;
    for (const found of stale) {
      await this.locked(found.checkoutId, async () => {
        const payment = await this.payments.findById(found._id).lean<LeanPayment>().exec();
        const checkout = await this.checkouts.findById(found.checkoutId).lean<LeanCheckout>().exec();
        if (payment?.status !== 'claimed' || !checkout) return;
        if (checkout.isPaid) {
          // Paid by this payment, its order not placed yet (orders was away, or a crash came in between): place it.
          // Paid by another: this one is refunded.
          if (checkout.paymentDetails?.id === payment.paypalOrderId) await this.placeOrder(checkout, payment);
          else await this.refund(payment);
          settled++;
          return;
        }
        await this.settle(checkout, payment).catch((err: Error) => {
          if (!(err instanceof ConflictException)) throw err; // refunded: settled too
        });
        this.logger.warn(
          { checkoutId: found.checkoutId, paypalOrderId: payment.paypalOrderId },
          'stale payment settled',
        );
        settled++;
      });
    }
    return settled;
  }

  private async refund(payment: LeanPayment): Promise<void> {
    const refund = await this.paypal.refundCapture(payment.details.captureId, refundRequestId(payment.paypalOrderId));
    // Refused: the payment stays as it is (claimed), and the sweeper tries again later.
    if (!refund.ok) throw new ServiceUnavailableException(CHECKOUT_MESSAGES.paypalUnavailable);
    await this.payments.updateOne({ _id: payment._id }, { $set: { status: 'refunded', refundId: refund.id } }).exec();
    this.logger.warn(
      { checkoutId: payment.checkoutId, paypalOrderId: payment.paypalOrderId, refundId: refund.id },
      'stock gone after the reservation expired: payment refunded',
    );
  }

  // ------------------------------------------------------------------ the catalog's expired holds

  /**
   * checkout.holds.expired: the catalog's sweeper may give back this checkout's expired hold only if it is unpaid, and
   * one conditional write both says so and makes its pay hold the lines again (`stockReleased`). A paid checkout keeps
   * its hold until its order takes it; a hold of a checkout never stored (its create failed after the hold) goes.
   */
  async expiredHold(checkoutId: string): Promise<ExpiredHoldResponse> {
    if (!Types.ObjectId.isValid(checkoutId)) return { release: true };
    const { matchedCount } = await this.checkouts
      .updateOne({ _id: checkoutId, isPaid: false }, { $set: { stockReleased: true } }, { timestamps: false })
      .exec();
    if (matchedCount === 1) return { release: true };
    return { release: !(await this.checkouts.exists({ _id: checkoutId }).exec()) };
  }

  // ------------------------------------------------------------------ finalize

  /**
   * The caller's paid checkout's order, placed by pay (or now, when pay could not reach orders). `created` is true
   * for the first finalize of the checkout, which one conditional write decides whatever races, so the client's
   * first call answers 201 and every repeat 200 with the same order.
   */
  async finalize(user: AuthUser, id: string): Promise<CreateOrderResponse> {
    const finalizedAt = new Date();
    const finalizing = await this.checkouts
      .findOneAndUpdate(
        { _id: id, 'user._id': user.id, isPaid: true, isFinalized: false },
        { $set: { isFinalized: true, finalizedAt } },
        { returnDocument: 'after' },
      )
      .lean<LeanCheckout>()
      .exec();
    const checkout = finalizing ?? (await this.findOwned(user.id, id));
    if (!checkout.isPaid) throw new BadRequestException(CHECKOUT_MESSAGES.notPaid);
    try {
      const { order } = await this.placeOrder(checkout, undefined, { placedBefore: true });
      return { order, created: !!finalizing };
    } catch (err) {
      // No order to answer (orders away): this call finalized nothing, so the client's retry is still the first.
      if (finalizing)
        await this.checkouts
          .updateOne({ _id: checkout._id, finalizedAt }, { $set: { isFinalized: false }, $unset: { finalizedAt: '' } })
          .exec()
          .catch(() => undefined);
      throw err;
    }
  }

  /** The caller's checkout; anyone else's answers 404 as if it did not exist (an admin's too). */
  private async findOwned(userId: string, id: string): Promise<LeanCheckout> {
    const checkout = await this.checkouts.findOne({ _id: id, 'user._id': userId }).lean<LeanCheckout>().exec();
    if (!checkout) throw new NotFoundException(CHECKOUT_MESSAGES.notFound);
    return checkout;
  }

  /** One pay of a checkout at a time: a double click asks PayPal once (its writes are conditional all the same). */
  private locked<T>(id: string, fn: () => Promise<T>): Promise<T> {
    return this.locks.run(id, fn);
  }

  /**
   * A checkout made while identity could not say who the buyer is (the token's name, no email) asks again before its
   * order is placed, so the order keeps the email its confirmation and the admin's search need; still away: as it is.
   */
  private async withBuyerEmail(checkout: LeanCheckout): Promise<LeanCheckout> {
    const buyer = await this.buyer({ id: checkout.user._id, name: checkout.user.name });
    if (!buyer.email) return checkout;
    await this.checkouts.updateOne({ _id: checkout._id }, { $set: { user: buyer } }, { timestamps: false }).exec();
    return { ...checkout, user: buyer };
  }

  /** Who is buying, as identity knows them (the order keeps the name and email); the token's name if it is away. */
  private async buyer(user: Pick<AuthUser, 'id' | 'name'>): Promise<Buyer> {
    try {
      const found = await this.identity.send<PublicUser | null>(
        PATTERNS.identity.findUser,
        { userId: user.id },
        BUYER_LOOKUP_MS,
      );
      if (found) return { _id: user.id, name: found.name, email: found.email };
    } catch (err) {
      this.logger.warn({ userId: user.id, err: (err as Error).message }, 'buyer lookup failed: using the token name');
    }
    return { _id: user.id, name: user.name };
  }

  /**
   * Asks catalog to hold the lines for the checkout. The request carries the moment this service stops waiting,
   * so a reservation that reaches the products' locks too late holds nothing. Holding again for the same
   * checkout is idempotent.
   */
  private async reserve(checkoutId: string, lines: LineRequest[], ttlSeconds: number): Promise<ReserveStockResponse> {
    return this.catalog.send<ReserveStockResponse>(
      PATTERNS.catalog.reserveStock,
      { checkoutId, lines, ttlSeconds, notAfter: this.notAfter() } satisfies ReserveStockRequest,
      this.config.RESERVE_TIMEOUT_MS,
    );
  }

  /** When a stock request sent now stops being waited for (a second, or a fifth of the wait, before the timeout). */
  private notAfter(): string {
    const timeoutMs = this.config.RESERVE_TIMEOUT_MS;
    return new Date(Date.now() + timeoutMs - Math.min(1000, timeoutMs / 5)).toISOString();
  }

  private async releaseQuietly(checkoutId: string): Promise<void> {
    await this.catalog
      .send(PATTERNS.catalog.releaseStock, { checkoutId })
      .catch((err: Error) =>
        this.logger.warn({ checkoutId, err: err.message }, 'could not release stock: it expires by itself'),
      );
  }
}

/** A line's product and variant, as one key: a size or colour left out is null. */
function variantKey(productId: string, size?: string | null, color?: string | null): string {
  return JSON.stringify([productId.toLowerCase(), size || null, color || null]);
}

/** Whom a code is checked for: the buyer's id, and their email when identity told it. */
function customerOf(buyer: Buyer): Customer {
  return { userId: buyer._id, ...(buyer.email ? { email: buyer.email } : {}) };
}

function toLineRequest(l: Pick<CheckoutLine, 'productId' | 'quantity' | 'size' | 'color'>): LineRequest {
  return {
    productId: l.productId,
    quantity: l.quantity,
    ...(l.size ? { size: l.size } : {}),
    ...(l.color ? { color: l.color } : {}),
  };
}

/**
 * The same product, size and colour twice is one line of the summed quantity. Each merged line keeps the number
 * (from 1) of the first client line it came from, so that a refusal names the line the shopper sees.
 */
export function mergeLines(items: CheckoutItemDto[]): Array<{ line: LineRequest; number: number }> {
  const byKey = new Map<string, { line: LineRequest; number: number }>();
  items.forEach((item, i) => {
    const line = toLineRequest({ ...item, size: item.size ?? '', color: item.color ?? '' });
    const key = JSON.stringify([line.productId, line.size ?? '', line.color ?? '']);
    const existing = byKey.get(key);
    if (existing) existing.line.quantity += line.quantity;
    else byKey.set(key, { line, number: i + 1 });
  });
  for (const { line } of byKey.values()) {
    if (line.quantity > MAX_CART_LINE_QUANTITY)
      throw new BadRequestException(`Quantity must be a whole number from 1 to ${MAX_CART_LINE_QUANTITY}`);
  }
  return [...byKey.values()];
}

/** Why a line cannot be bought, as the shopper should read it; a line naming no variant of its product is named. */
function lineError(line: PricedLine, number: number): HttpException {
  const named = (problem: string) =>
    new BadRequestException(CHECKOUT_MESSAGES.lineProblem(number, line.name ?? line.productId, problem));
  switch (line.problem) {
    case 'not_found':
      return new NotFoundException(line.message ?? 'Product not found');
    case 'out_of_stock':
      return new ConflictException(line.message);
    case 'insufficient_stock':
      return new ConflictException(
        `Only ${line.countInStock ?? 0} left in stock for ${line.name}${variantOf(line.size, line.color)}`,
      );
    case 'size_required':
      return named(CHECKOUT_MESSAGES.chooseSize);
    case 'color_required':
      return named(CHECKOUT_MESSAGES.chooseColor);
    case 'size_not_offered':
      return named(CHECKOUT_MESSAGES.sizeNotOffered(String(line.size)));
    case 'color_not_offered':
      return named(CHECKOUT_MESSAGES.colorNotOffered(String(line.color)));
    default:
      return new BadRequestException(line.message ?? 'Invalid checkout item');
  }
}

/** " (M, Red)": the variant after a product's name, or nothing for a product without sizes or colours. */
function variantOf(size?: string | null, color?: string | null): string {
  const parts = [size, color].filter((part): part is string => !!part);
  return parts.length ? ` (${parts.join(', ')})` : '';
}
