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
import { CheckoutLocks } from '../checkouts/checkout-locks';
import { Checkout, type LeanCheckout } from '../checkouts/checkout.schema';
import {
  customerLimitOf,
  discountPence,
  normalizeCode,
  termsRefusal,
  toDiscountCodeJson,
  type DiscountTerms,
} from './discount-rules';
import { DiscountCode, DiscountSlot, DiscountUse, type LeanDiscountCode, type SlotKind } from './discount.schema';
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

/** The discount a checkout keeps (pence). `slots`: the uses of a limited code it holds. */
export interface CheckoutDiscount {
  codeId: string;
  code: string;
  amountPence: number;
  slots: string[];
}

const live = (now: Date): FilterQuery<DiscountSlot> => ({
  $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }],
});

/**
 * Discount codes: the admin's CRUD, the checks a code passes before a checkout uses it, and its uses.
 *
 * A limited code's uses are units with names (`discount_slots`): `<codeId>:<n>` for n in 1..usageLimit and
 * `<codeId>:<userId>:<n>` for n in 1..the customer's limit. A checkout claims one of each by insert — the unique
 * `_id` decides whatever races (FerretDB applies no update atomically, a unique index is) — so 20 buyers on one use
 * left make one checkout with it. An unpaid checkout's units carry its hold's end and are deleted when it passes
 * (under the checkout's lock, so a payment in progress keeps them); a paid checkout's are kept, and once its order
 * is placed the use is counted in `discount_uses` under the checkout's id (unique: once, whatever redelivers).
 */
@Injectable()
export class DiscountsService implements OnModuleInit {
  private readonly logger = new Logger(DiscountsService.name);

  constructor(
    @InjectModel(DiscountCode.name) private readonly codes: Model<DiscountCode>,
    @InjectModel(DiscountSlot.name) private readonly slots: Model<DiscountSlot>,
    @InjectModel(DiscountUse.name) private readonly uses: Model<DiscountUse>,
    @InjectModel(Checkout.name) private readonly checkouts: Model<Checkout>,
    private readonly locks: CheckoutLocks,
  ) {}

  /** The unique indexes must exist before the first claim relies on them. */
  async onModuleInit(): Promise<void> {
    await indexesBuilt([this.codes, this.slots, this.uses]);
  }

  // ------------------------------------------------------------------ admin

  async list(now = new Date()): Promise<DiscountCodeJson[]> {
    const codes = await this.codes.find().sort({ createdAt: -1, _id: -1 }).lean<LeanDiscountCode[]>().exec();
    const counts = await this.countsOf(
      codes.map((c) => String(c._id)),
      now,
    );
    return codes.map((c) => toDiscountCodeJson(c, counts.get(String(c._id)) ?? { uses: 0, held: 0 }, now));
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

  async json(code: LeanDiscountCode, now = new Date()): Promise<DiscountCodeJson> {
    const counts = await this.countsOf([String(code._id)], now);
    return toDiscountCodeJson(code, counts.get(String(code._id)) ?? { uses: 0, held: 0 }, now);
  }

  /** Per code: orders placed with it, and checkouts holding one of its uses now. */
  private async countsOf(codeIds: string[], now: Date): Promise<Map<string, { uses: number; held: number }>> {
    const counts = new Map(codeIds.map((id) => [id, { uses: 0, held: 0 }]));
    if (!codeIds.length) return counts;
    const [used, holds] = await Promise.all([
      this.uses
        .aggregate<{ _id: string; n: number }>([
          { $match: { codeId: { $in: codeIds } } },
          { $group: { _id: '$codeId', n: { $sum: 1 } } },
        ])
        .exec(),
      this.slots
        .find({ codeId: { $in: codeIds }, usedAt: null, ...live(now) }, { codeId: 1, checkoutId: 1 })
        .lean<Array<{ codeId: string; checkoutId: string }>>()
        .exec(),
    ]);
    for (const { _id, n } of used) counts.get(_id)!.uses = n;
    const holders = new Map<string, Set<string>>();
    for (const { codeId, checkoutId } of holds) holders.set(codeId, (holders.get(codeId) ?? new Set()).add(checkoutId));
    for (const [codeId, set] of holders) counts.get(codeId)!.held = set.size;
    return counts;
  }

  // ------------------------------------------------------------------ at checkout

  /**
   * The code, if this customer may use it on this subtotal now, with what it takes off; a 400 with the shopper's
   * message otherwise. Counts uses and live holds (a quote holds nothing); `ownCheckoutId` is the checkout being
   * paid, whose own holds do not count against it.
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
    const codeId = String(code._id);
    if (code.usageLimit !== null) {
      const taken = await this.slots.countDocuments({ codeId, kind: 'total', ...live(now) }).exec();
      if (taken >= code.usageLimit) throw new BadRequestException(DISCOUNT_MESSAGES.usedUp);
    }
    const customerLimit = customerLimitOf(code);
    if (customerLimit !== null) {
      const taken = await this.slots
        .countDocuments({ codeId, kind: 'customer', userId: customer.userId, ...live(now) })
        .exec();
      if (taken >= customerLimit) throw new BadRequestException(DISCOUNT_MESSAGES.perCustomerLimit);
    }
    return { code, amountPence: discountPence(code, subtotalPence) };
  }

  /**
   * Holds one use of a limited code for a new checkout until `until` (its unpaid hold's end): one of the code's
   * uses and one of the customer's, each claimed by insert. Refused (400, nothing held) when either is gone.
   */
  async hold(applied: Applied, customer: Customer, checkoutId: string, until: Date): Promise<string[]> {
    const claimed: string[] = [];
    try {
      for (const kind of kindsOf(applied.code)) {
        claimed.push(await this.claim(applied.code, kind, customer.userId, checkoutId, until));
      }
      return claimed;
    } catch (err) {
      if (claimed.length) await this.slots.deleteMany({ _id: { $in: claimed } }).exec();
      throw err;
    }
  }

  /**
   * A paid checkout keeps its uses until its order takes them (under the checkout's lock, held by the caller):
   * each of its units it still holds is kept for good; one freed since (the hold expired before the payment) is
   * claimed again, and when none is left the code is used up (400): the caller refunds.
   */
  async keepForPaid(checkout: LeanCheckout & { discount?: CheckoutDiscount }): Promise<void> {
    const discount = checkout.discount;
    if (!discount?.slots.length) return;
    const checkoutId = String(checkout._id);
    const code = await this.codes.findById(discount.codeId).lean<LeanDiscountCode>().exec();
    if (!code) throw new BadRequestException(DISCOUNT_MESSAGES.unknown);
    const mine = await this.slots.find({ checkoutId }).lean<DiscountSlot[]>().exec();
    for (const kind of kindsOf(code)) {
      const held = mine.find((s) => s.kind === kind);
      if (held) await this.slots.updateOne({ _id: held._id }, { $set: { expiresAt: null } }).exec();
      else await this.claim(code, kind, checkout.user._id, checkoutId, null);
    }
  }

  /** Frees whatever uses the checkout holds and its order has not taken (caller holds the checkout's lock). */
  async release(checkoutId: string): Promise<void> {
    await this.slots.deleteMany({ checkoutId, usedAt: null }).exec();
  }

  /**
   * Counts the use of the checkout's code once its order is placed: one record per checkout (unique), so a
   * redelivered `orders.order.placed` or a repeated finalize counts nothing more; its units are kept for good.
   */
  async countUse(checkout: LeanCheckout & { discount?: CheckoutDiscount }, orderId?: string): Promise<boolean> {
    const discount = checkout.discount;
    if (!discount) return false;
    const checkoutId = String(checkout._id);
    let counted = true;
    try {
      await this.uses.create({
        _id: checkoutId,
        codeId: discount.codeId,
        code: discount.code,
        userId: checkout.user._id,
        amountPence: discount.amountPence,
        ...(orderId ? { orderId } : {}),
        usedAt: new Date(),
      });
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      counted = false;
    }
    await this.slots.updateMany({ checkoutId, usedAt: null }, { $set: { usedAt: new Date(), expiresAt: null } }).exec();
    if (counted) this.logger.log({ checkoutId, orderId, code: discount.code }, 'discount use counted');
    return counted;
  }

  /**
   * Frees the uses held by unpaid checkouts whose hold ended (the sweeper, and a claim finding a code used up):
   * each under its checkout's lock, so a payment in progress keeps its uses. Resolves to how many checkouts.
   */
  async releaseExpired(now = new Date(), filter: FilterQuery<DiscountSlot> = {}): Promise<number> {
    const expired = await this.slots
      .find({ ...filter, usedAt: null, expiresAt: { $lt: now } }, { checkoutId: 1 })
      .limit(200)
      .lean<Array<{ checkoutId: string }>>()
      .exec();
    let released = 0;
    for (const checkoutId of new Set(expired.map((s) => s.checkoutId))) {
      await this.locks
        .tryRun(checkoutId, async () => {
          const checkout = await this.checkouts.findById(checkoutId, { isPaid: 1 }).lean().exec();
          if (checkout?.isPaid) {
            await this.slots.updateMany({ checkoutId, usedAt: null }, { $set: { expiresAt: null } }).exec();
            return;
          }
          await this.release(checkoutId);
          released++;
          this.logger.log({ checkoutId }, 'discount hold released: the unpaid checkout expired');
        })
        .catch((err: Error) => this.logger.warn({ checkoutId, err: err.message }, 'discount hold not released yet'));
    }
    return released;
  }

  /** A first order is the customer's first placed order: any paid checkout of theirs becomes (or is) one. */
  private async hasOrdered(userId: string): Promise<boolean> {
    return (await this.checkouts.exists({ 'user._id': userId, isPaid: true }).exec()) !== null;
  }

  /** Claims one unit of `kind` for the checkout: the lowest free number, by insert; a 400 when none is left. */
  private async claim(
    code: LeanDiscountCode,
    kind: SlotKind,
    userId: string,
    checkoutId: string,
    until: Date | null,
  ): Promise<string> {
    const codeId = String(code._id);
    const limit = kind === 'total' ? code.usageLimit! : customerLimitOf(code)!;
    const prefix = kind === 'total' ? codeId : `${codeId}:${userId}`;
    for (let round = 0; round < 2; round++) {
      const taken = new Set(
        (
          await this.slots
            .find({ codeId, kind, ...(kind === 'customer' ? { userId } : {}) }, { _id: 1 })
            .lean<Array<{ _id: string }>>()
            .exec()
        ).map((s) => s._id),
      );
      for (let n = 1; n <= limit; n++) {
        const _id = `${prefix}:${n}`;
        if (taken.has(_id)) continue;
        try {
          await this.slots.create({ _id, codeId, kind, userId, checkoutId, expiresAt: until, usedAt: null });
          return _id;
        } catch (err) {
          if (!isDuplicateKeyError(err)) throw err;
        }
      }
      // All taken: some may be held by checkouts whose hold ended. Free those, then look once more.
      if (round === 0 && !(await this.releaseExpired(new Date(), { codeId, kind }))) break;
    }
    throw new BadRequestException(kind === 'total' ? DISCOUNT_MESSAGES.usedUp : DISCOUNT_MESSAGES.perCustomerLimit);
  }
}

/** The units a checkout holds of a code: one of its total uses, and one of the customer's, when limited. */
function kindsOf(code: LeanDiscountCode): SlotKind[] {
  return [
    ...(code.usageLimit !== null ? (['total'] as const) : []),
    ...(customerLimitOf(code) !== null ? (['customer'] as const) : []),
  ];
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
