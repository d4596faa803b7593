import { Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { Checkout, type LeanCheckout } from '../checkouts/checkout.schema';
import { DiscountCode, DiscountCustomer, DiscountSlot, DiscountUse, type UnitCounter } from './discount.schema';

type LegacyCode = Pick<DiscountCode, 'usageLimit'> & { _id: unknown };
type Holder = Pick<DiscountSlot, 'checkoutId' | 'expiresAt'>;

/**
 * Start-up backfill of the counters of codes made before them (idempotent, safe on every replica at once). A code
 * without `taken` had its uses in `discount_uses` (one per checkout) and a limited code's units in `discount_slots`
 * (`<codeId>:<n>`, and `<codeId>:<userId>:<n>` for a customer's allowance). Its counter becomes: used = its uses;
 * held by the checkouts whose slot is live and not used — unpaid until the slot's end, or paid (a slot without an
 * end); an unlimited code, which had no slots, is held by its checkouts not yet used: paid ones, and unpaid ones
 * whose reservation has not ended. Customers' counters are written first (insert-only: a second run changes nothing),
 * then the code's, by an update that finds it still without `taken`: whichever replica writes first, once.
 * The old collections are only read, never written again.
 */
@Injectable()
export class DiscountBackfill {
  private readonly logger = new Logger(DiscountBackfill.name);

  constructor(
    @InjectModel(DiscountCode.name) private readonly codes: Model<DiscountCode>,
    @InjectModel(DiscountCustomer.name) private readonly customers: Model<DiscountCustomer>,
    @InjectModel(DiscountSlot.name) private readonly slots: Model<DiscountSlot>,
    @InjectModel(DiscountUse.name) private readonly uses: Model<DiscountUse>,
    @InjectModel(Checkout.name) private readonly checkouts: Model<Checkout>,
  ) {}

  /** Backfills every code still without a counter; resolves to how many this call wrote. */
  async run(now = new Date()): Promise<number> {
    const legacy = await this.codes
      .find({ taken: { $exists: false } }, { usageLimit: 1 })
      .lean<LegacyCode[]>()
      .exec();
    let written = 0;
    for (const code of legacy) if (await this.backfill(code, now)) written++;
    if (written) this.logger.log({ codes: written }, 'discount counters backfilled from slots and uses');
    return written;
  }

  /** Backfills one code made before counters (a no-op once it has one); true when this call wrote it. */
  async backfill(code: LegacyCode, now: Date): Promise<boolean> {
    const codeId = String(code._id);
    const [uses, slots] = await Promise.all([
      this.uses.find({ codeId }, { _id: 1 }).lean<Array<{ _id: string }>>().exec(),
      this.slots.find({ codeId }).lean<DiscountSlot[]>().exec(),
    ]);
    const used = new Set(uses.map((u) => u._id));
    const live = (s: DiscountSlot) =>
      s.usedAt === null && !used.has(s.checkoutId) && (!s.expiresAt || s.expiresAt > now);

    const byCustomer = new Map<string, DiscountSlot[]>();
    for (const s of slots.filter((s) => s.kind === 'customer'))
      byCustomer.set(s.userId, [...(byCustomer.get(s.userId) ?? []), s]);
    for (const [userId, mine] of byCustomer) {
      const usedOnes = mine.filter((s) => s.usedAt !== null || used.has(s.checkoutId)).length;
      await this.customers
        .updateOne(
          { _id: `${codeId}:${userId}` },
          { $setOnInsert: counterOf(usedOnes, mine.filter(live)) },
          { upsert: true },
        )
        .exec();
    }

    const holders: Holder[] =
      code.usageLimit !== null
        ? slots.filter((s) => s.kind === 'total' && live(s))
        : await this.unlimitedHolders(codeId, used, now);
    const res = await this.codes
      .updateOne({ _id: code._id, taken: { $exists: false } }, { $set: counterOf(used.size, holders) })
      .exec();
    return res.modifiedCount === 1;
  }

  /** An unlimited code's checkouts whose use is not counted: paid ones (kept), unpaid ones still reserved. */
  private async unlimitedHolders(codeId: string, used: Set<string>, now: Date): Promise<Holder[]> {
    const open = await this.checkouts
      .find(
        { 'discount.codeId': codeId, $or: [{ isPaid: true }, { reservationExpiresAt: { $gt: now } }] },
        { isPaid: 1, reservationExpiresAt: 1 },
      )
      .lean<Array<Pick<LeanCheckout, '_id' | 'isPaid' | 'reservationExpiresAt'>>>()
      .exec();
    return open
      .filter((c) => !used.has(String(c._id)))
      .map((c) => ({ checkoutId: String(c._id), expiresAt: c.isPaid ? null : c.reservationExpiresAt }));
  }
}

/** A counter of `used` uses and these live holders (one unit each, whatever slots they had). */
function counterOf(used: number, holders: Holder[]): UnitCounter {
  const byCheckout = new Map(holders.map((h) => [h.checkoutId, h.expiresAt]));
  const unpaid = [...byCheckout].filter((h): h is [string, Date] => h[1] !== null);
  return {
    taken: used + byCheckout.size,
    used,
    unpaid: unpaid.map(([id]) => id),
    unpaidUntil: Object.fromEntries(unpaid),
    paid: [...byCheckout].filter(([, until]) => !until).map(([id]) => id),
  };
}
