import {
  BadRequestException,
  Injectable,
  Logger,
  NotFoundException,
  OnModuleInit,
  ServiceUnavailableException,
} from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { DISCOUNT_MESSAGES, toPence, type DiscountCodeJson } from '@shop/contracts';
import { indexesBuilt, isDuplicateKeyError } from '@shop/nest-common';
import type { FilterQuery, Model } from 'mongoose';
import { Checkout, type LeanCheckout } from '../checkouts/checkout.schema';
import { DiscountBackfill } from './discount-backfill';
import { liveHolders, liveTaken, UnitCounters } from './discount-counters';
import {
  customerLimitOf,
  discountPence,
  normalizeCode,
  termsRefusal,
  toDiscountCodeJson,
  type DiscountTerms,
} from './discount-rules';
import { DiscountCode, DiscountCustomer, type LeanDiscountCode, type UnitCounter } from './discount.schema';
import type { DiscountCodeDto } from './dto/discount-code.dto';

/** Who is using a code: the buyer's id and, when identity told, their email. */
export interface Customer {
  userId: string;
  email?: string;
}

/** A code that applies to a subtotal, and what it takes off. */
export interface Applied {
  code: LeanDiscountCode;
  amountPence: number;
}

/**
 * The discount a checkout keeps (pence). `slots`: the counters holding its unit — the code's id, and
 * `<codeId>:<userId>` when the customer's allowance is limited too (a checkout made before counters lists its old
 * slot ids there, `<codeId>:<n>` and `<codeId>:<userId>:<n>`, which name the same counters).
 */
export interface CheckoutDiscount {
  codeId: string;
  code: string;
  amountPence: number;
  slots: string[];
}

/** What the discount calls need of a checkout. */
export type DiscountedCheckout = Pick<LeanCheckout, '_id' | 'user'> & { discount?: CheckoutDiscount };

/**
 * Discount codes: the admin's CRUD, the checks a code passes before a checkout uses it, and its uses.
 *
 * A code counts its own uses and holds (discount-counters.ts): a checkout takes a unit of it with one conditional
 * update — for a limited code, only while `taken < usageLimit` — so 20 buyers on one use left make one checkout
 * with it, whatever the limit, in one write each. A per-customer limit (or a first-order code) is a second counter,
 * `<codeId>:<userId>`. The unit is named by the checkout's id, and every change of it (kept at payment, given back
 * when an unpaid hold ends or a payment is refunded, turned into a use when the order is placed) is an update whose
 * filter finds that id where the change takes it from: each happens once, however often it is retried or raced,
 * with no lock. The use is counted here, when checkout places the order (`countUse`); no event counts it again.
 */
@Injectable()
export class DiscountsService implements OnModuleInit {
  private readonly logger = new Logger(DiscountsService.name);
  private readonly codeCounters: UnitCounters;
  private readonly customerCounters: UnitCounters;

  constructor(
    @InjectModel(DiscountCode.name) private readonly codes: Model<DiscountCode>,
    @InjectModel(DiscountCustomer.name) customers: Model<DiscountCustomer>,
    @InjectModel(Checkout.name) private readonly checkouts: Model<Checkout>,
    private readonly backfill: DiscountBackfill,
  ) {
    this.codeCounters = new UnitCounters(codes);
    this.customerCounters = new UnitCounters(customers);
  }

  /** The unique code index must exist before a create relies on it; codes made before counters get theirs. */
  async onModuleInit(): Promise<void> {
    await indexesBuilt([this.codes]);
    await this.backfill.run();
  }

  // ------------------------------------------------------------------ admin

  async list(now = new Date()): Promise<DiscountCodeJson[]> {
    const codes = await this.codes.find().sort({ createdAt: -1, _id: -1 }).lean<LeanDiscountCode[]>().exec();
    return codes.map((c) => toDiscountCodeJson(c, countsOf(c, now), now));
  }

  async create(dto: DiscountCodeDto): Promise<DiscountCodeJson> {
    try {
      const created = await this.codes.create(termsOf(dto));
      return toDiscountCodeJson(created.toObject<LeanDiscountCode>(), { uses: 0, held: 0 });
    } catch (err) {
      if (isDuplicateKeyError(err)) throw new BadRequestException(DISCOUNT_MESSAGES.duplicate);
      throw err;
    }
  }

  async update(id: string, dto: DiscountCodeDto): Promise<DiscountCodeJson> {
    try {
      const updated = await this.codes
        .findByIdAndUpdate(
          id,
          { $set: termsOf(dto), $unset: dto.type === 'percent' ? { amountPence: 1 } : { percent: 1 } },
          { new: true },
        )
        .lean<LeanDiscountCode>()
        .exec();
      if (!updated) throw new NotFoundException(DISCOUNT_MESSAGES.notFound);
      return this.json(updated);
    } catch (err) {
      if (isDuplicateKeyError(err)) throw new BadRequestException(DISCOUNT_MESSAGES.duplicate);
      throw err;
    }
  }

  /** Deactivates: a code is never deleted (orders name it). */
  async deactivate(id: string): Promise<{ message: string }> {
    const found = await this.codes
      .findByIdAndUpdate(id, { $set: { active: false } })
      .lean()
      .exec();
    if (!found) throw new NotFoundException(DISCOUNT_MESSAGES.notFound);
    return { message: DISCOUNT_MESSAGES.deactivated };
  }

  json(code: LeanDiscountCode, now = new Date()): DiscountCodeJson {
    return toDiscountCodeJson(code, countsOf(code, now), now);
  }

  // ------------------------------------------------------------------ at checkout

  /**
   * The code, if this customer may use it on this subtotal now, with what it takes off; a 400 with the shopper's
   * message otherwise. Counts uses and live holds (a quote holds nothing).
   */
  async check(input: string, customer: Customer, subtotalPence: number, now = new Date()): Promise<Applied> {
    const code = await this.codes
      .findOne({ code: normalizeCode(input) })
      .lean<LeanDiscountCode>()
      .exec();
    if (!code) throw new BadRequestException(DISCOUNT_MESSAGES.unknown);
    if (code.email && !customer.email)
      // Identity did not say who the buyer is: a personal code cannot be checked now.
      throw new ServiceUnavailableException('Could not check this discount code, please try again');
    const refusal = termsRefusal(code, { now, subtotalPence, email: customer.email });
    if (refusal) throw new BadRequestException(refusal);
    if (code.firstOrderOnly && (await this.hasOrdered(customer.userId)))
      throw new BadRequestException(DISCOUNT_MESSAGES.notFirstOrder);
    if (code.usageLimit !== null && liveTaken(code, now) >= code.usageLimit)
      throw new BadRequestException(DISCOUNT_MESSAGES.usedUp);
    const customerLimit = customerLimitOf(code);
    if (customerLimit !== null) {
      const mine = await this.customerCounters.read(customerCounterId(String(code._id), customer.userId));
      if (mine && liveTaken(mine, now) >= customerLimit)
        throw new BadRequestException(DISCOUNT_MESSAGES.perCustomerLimit);
    }
    return { code, amountPence: discountPence(code, subtotalPence) };
  }

  /**
   * Holds one use of the code for a new checkout until `until` (its unpaid hold's end): a unit of the code's counter
   * and, when the customer's allowance is limited, one of theirs. Refused (400, nothing held) when either is gone.
   * Resolves to the counters holding the checkout's unit (its `discount.slots`).
   */
  async hold(applied: Applied, customer: Customer, checkoutId: string, until: Date): Promise<string[]> {
    const codeId = String(applied.code._id);
    if (!(await this.takeOfCode(applied.code, checkoutId, until)))
      throw new BadRequestException(DISCOUNT_MESSAGES.usedUp);
    const customerLimit = customerLimitOf(applied.code);
    if (customerLimit === null) return [codeId];
    const mine = customerCounterId(codeId, customer.userId);
    const taken = await this.takeOfCustomer(mine, customerLimit, checkoutId, until).catch(async (err: unknown) => {
      await this.codeCounters.release(codeId, checkoutId);
      throw err;
    });
    if (taken) return [codeId, mine];
    await this.codeCounters.release(codeId, checkoutId);
    throw new BadRequestException(DISCOUNT_MESSAGES.perCustomerLimit);
  }

  /**
   * A paid checkout keeps its use until its order takes it: each of its units moves from unpaid to paid, or — its
   * hold ended and was given back before the payment — is taken again; when none is left the code is used up (400,
   * nothing kept): the caller refunds.
   */
  async keepForPaid(checkout: DiscountedCheckout): Promise<void> {
    const discount = checkout.discount;
    if (!discount) return;
    const checkoutId = String(checkout._id);
    // The code is read only when a unit must be taken again (its limits then apply): the usual payment moves them.
    let code: LeanDiscountCode | null | undefined;
    const terms = async () => {
      code ??= await this.codes.findById(discount.codeId).lean<LeanDiscountCode>().exec();
      if (!code) throw new BadRequestException(DISCOUNT_MESSAGES.unknown);
      return code;
    };
    const kept =
      (await this.codeCounters.moveToPaid(discount.codeId, checkoutId)) ||
      (await this.takeOfCode(await terms(), checkoutId, null));
    if (!kept) throw new BadRequestException(DISCOUNT_MESSAGES.usedUp);
    const customer = customerCounterOf(checkout);
    if (!customer) return;
    const keptToo = await (async () => {
      if (await this.customerCounters.moveToPaid(customer, checkoutId)) return true;
      const limit = customerLimitOf(await terms());
      return limit === null || this.customerCounters.take(customer, checkoutId, null, { taken: { $lt: limit } }, true);
    })().catch(async (err: unknown) => {
      await this.codeCounters.release(discount.codeId, checkoutId);
      throw err;
    });
    if (keptToo) return;
    await this.codeCounters.release(discount.codeId, checkoutId);
    throw new BadRequestException(DISCOUNT_MESSAGES.perCustomerLimit);
  }

  /**
   * Gives back whatever units the checkout holds and its order has not used (its hold ended unpaid, its payment was
   * refunded, the checkout was never stored): once, however often it is called. A checkout not stored passes its id,
   * buyer and the discount `hold` resolved to.
   */
  async release(checkout: DiscountedCheckout): Promise<void> {
    const checkoutId = String(checkout._id);
    const [codeId, customer] = countersOf(checkout);
    if (codeId) await this.codeCounters.release(codeId, checkoutId);
    if (customer) await this.customerCounters.release(customer, checkoutId);
  }

  /**
   * Counts the use of the checkout's code once its order is placed: its units turn into uses by updates that find
   * the checkout holding them, so a repeated finalize counts nothing more. Resolves true when this call counted it.
   */
  async countUse(checkout: DiscountedCheckout, orderId?: string): Promise<boolean> {
    const discount = checkout.discount;
    if (!discount) return false;
    const checkoutId = String(checkout._id);
    const customer = customerCounterOf(checkout);
    const counted = await this.codeCounters.use(discount.codeId, checkoutId);
    if (customer) await this.customerCounters.use(customer, checkoutId);
    if (counted) this.logger.log({ checkoutId, orderId, code: discount.code }, 'discount use counted');
    return counted;
  }

  /**
   * Gives back the units of codes held by unpaid checkouts whose hold ended (the sweeper): each by an update that
   * finds it still unpaid, so a checkout paid meanwhile keeps its unit. A customer's counter is tidied when they
   * next use the code (its ended holds never count against them). Resolves to how many holds were given back.
   */
  async releaseExpired(now = new Date()): Promise<number> {
    let released = 0;
    for (const code of await this.codeCounters.withUnpaid()) {
      const freed = await this.codeCounters.releaseExpired(code, now);
      for (const checkoutId of freed)
        this.logger.log(
          { checkoutId, codeId: String(code._id) },
          'discount hold released: the unpaid checkout expired',
        );
      released += freed.length;
    }
    return released;
  }

  /** A first order is the customer's first placed order: any paid checkout of theirs becomes (or is) one. */
  private async hasOrdered(userId: string): Promise<boolean> {
    return (await this.checkouts.exists({ 'user._id': userId, isPaid: true }).exec()) !== null;
  }

  /**
   * A unit of the code for the checkout (unpaid until `until`, or paid: null). When the write misses — the code is
   * full, or an admin edited its limit since it was read — the code is read again, its ended holds are given back,
   * and it is tried again while a unit may be free.
   */
  private async takeOfCode(code: LeanDiscountCode, checkoutId: string, until: Date | null): Promise<boolean> {
    const codeId = String(code._id);
    let current: LeanDiscountCode | null = code;
    for (let round = 0; current && round < 3; round++) {
      if (await this.codeCounters.take(codeId, checkoutId, until, codeLimit(current))) return true;
      current = await this.codes.findById(codeId).lean<LeanDiscountCode>().exec();
      if (!current) return false;
      // Made by a replica that predates counters while this one ran (a rolling deploy): backfilled now.
      if (current.taken === undefined) {
        await this.backfill.backfill(current, new Date());
        current = await this.codes.findById(codeId).lean<LeanDiscountCode>().exec();
        continue;
      }
      const now = new Date();
      const freed = (await this.codeCounters.releaseExpired(current, now)).length;
      if (current.usageLimit !== null && liveTaken(current, now) >= current.usageLimit) return false;
      if (freed) current = { ...current, taken: (current.taken ?? 0) - freed };
    }
    return false;
  }

  /** A unit of the customer's counter (made by the first); their ended holds are given back when it is full. */
  private async takeOfCustomer(id: string, limit: number, checkoutId: string, until: Date): Promise<boolean> {
    const condition = { taken: { $lt: limit } };
    if (await this.customerCounters.take(id, checkoutId, until, condition, true)) return true;
    const mine = await this.customerCounters.read(id);
    if (!mine || !(await this.customerCounters.releaseExpired(mine, new Date())).length) return false;
    return this.customerCounters.take(id, checkoutId, until, condition, true);
  }
}

/** The filter under which one more unit of the code may be taken: its limit, as read, not reached. */
function codeLimit(code: Pick<LeanDiscountCode, 'usageLimit'>): FilterQuery<UnitCounter> {
  // The limit read is part of the condition: an admin's edit in between makes the write miss, and it is read again.
  return code.usageLimit === null
    ? { usageLimit: null }
    : { usageLimit: code.usageLimit, taken: { $lt: code.usageLimit } };
}

const customerCounterId = (codeId: string, userId: string) => `${codeId}:${userId}`;

/** The admin's figures of a code: its uses, and the checkouts holding one of a limited code's uses now. */
function countsOf(code: LeanDiscountCode, now: Date): { uses: number; held: number } {
  return { uses: code.used ?? 0, held: code.usageLimit === null ? 0 : liveHolders(code, now) };
}

/** The checkout's counters: its code's, then its customer's when it holds a unit of that too. */
function countersOf(checkout: DiscountedCheckout): [string?, string?] {
  const discount = checkout.discount;
  if (!discount) return [];
  const customer = customerCounterOf(checkout);
  return customer ? [discount.codeId, customer] : [discount.codeId];
}

/** The customer counter a checkout holds a unit of, if any (named in its slots, in the new form or the old). */
function customerCounterOf(checkout: DiscountedCheckout): string | undefined {
  const discount = checkout.discount;
  if (!discount) return undefined;
  const id = customerCounterId(discount.codeId, checkout.user._id);
  return discount.slots.some((s) => s === id || s.startsWith(`${id}:`)) ? id : undefined;
}

/** The stored terms of an admin's body (pence, dates, upper-case code). */
function termsOf(dto: DiscountCodeDto): Omit<DiscountTerms, 'email'> & { code: string } {
  const date = (value?: string | null) => (value ? new Date(value) : null);
  return {
    code: normalizeCode(dto.code),
    type: dto.type,
    ...(dto.type === 'percent' ? { percent: dto.value } : { amountPence: toPence(dto.value) }),
    minSubtotalPence: dto.minSubtotal === undefined || dto.minSubtotal === null ? null : toPence(dto.minSubtotal),
    startsAt: date(dto.startsAt),
    endsAt: date(dto.endsAt),
    usageLimit: dto.usageLimit ?? null,
    perCustomerLimit: dto.perCustomerLimit ?? null,
    firstOrderOnly: dto.firstOrderOnly ?? false,
    active: dto.active,
  };
}
