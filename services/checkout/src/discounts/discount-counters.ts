import { isDuplicateKeyError } from '@shop/nest-common';
import type { FilterQuery, Model } from 'mongoose';
import type { UnitCounter } from './discount.schema';

/** A counter document as read: its id and counter fields (absent fields read as an empty counter). */
export type CounterDoc = Partial<UnitCounter> & { _id: unknown };

/** The units of a counter held by unpaid checkouts whose hold ended before `now`: theirs to give back. */
export function expiredHolders(counter: CounterDoc, now: Date): string[] {
  return (counter.unpaid ?? []).filter((id) => {
    const until = counter.unpaidUntil?.[id];
    return !until || new Date(until) < now;
  });
}

/** Units used or held now: `taken` less the holds that ended and are not given back yet. */
export function liveTaken(counter: CounterDoc, now: Date): number {
  return (counter.taken ?? 0) - expiredHolders(counter, now).length;
}

/** Checkouts holding a unit now: unpaid ones whose hold has not ended, and paid ones waiting for their order. */
export function liveHolders(counter: CounterDoc, now: Date): number {
  return (counter.unpaid ?? []).length - expiredHolders(counter, now).length + (counter.paid ?? []).length;
}

const holding = (checkoutId: string): FilterQuery<UnitCounter> => ({
  $or: [{ unpaid: checkoutId }, { paid: checkoutId }],
});
const untilKey = (checkoutId: string) => `unpaidUntil.${checkoutId}`;

/**
 * The writes of a {@link UnitCounter}, each ONE conditional single-document update (MongoDB applies it atomically,
 * and so does our FerretDB build): whatever the limit, a unit costs one write, and two racing checkouts can never
 * take the same last unit. Every transition names the checkout in its filter, so a retry, a redelivery or a second
 * replica doing the same thing finds it gone and changes nothing.
 */
export class UnitCounters {
  constructor(private readonly model: Model<any>) {} // eslint-disable-line @typescript-eslint/no-explicit-any

  /**
   * Takes one unit for the checkout if `limit` (a filter on the counter: e.g. `{usageLimit: 5, taken: {$lt: 5}}`)
   * still holds: unpaid until `until`, or for a paid checkout (`until` null). `upsert`: the counter is made by its
   * first unit (a per-customer counter; the unique `_id` decides a race). True when the checkout holds a unit now,
   * this call's or an earlier one's.
   */
  async take(
    id: string,
    checkoutId: string,
    until: Date | null,
    limit: FilterQuery<UnitCounter>,
    upsert = false,
  ): Promise<boolean> {
    const update = until
      ? { $inc: { taken: 1 }, $push: { unpaid: checkoutId }, $set: { [untilKey(checkoutId)]: until } }
      : { $inc: { taken: 1 }, $push: { paid: checkoutId } };
    try {
      const res = await this.model
        .updateOne({ _id: id, ...limit, unpaid: { $ne: checkoutId }, paid: { $ne: checkoutId } }, update, { upsert })
        .exec();
      if (res.modifiedCount + res.upsertedCount === 1) return true;
    } catch (err) {
      // An upsert finding the counter there but full (or already ours): the unique `_id` refuses the insert.
      if (!upsert || !isDuplicateKeyError(err)) throw err;
    }
    return (await this.model.exists({ _id: id, ...holding(checkoutId) }).exec()) !== null;
  }

  /**
   * A paid checkout keeps its unit until its order turns it into a use: moved from `unpaid` to `paid`. False when it
   * holds no unpaid unit (its hold ended and was given back meanwhile, or this payment moved it already): the caller
   * takes one within the limit, which {@link take} also answers true for a unit already kept.
   */
  async moveToPaid(id: string, checkoutId: string): Promise<boolean> {
    const moved = await this.model
      .updateOne(
        { _id: id, unpaid: checkoutId },
        { $pull: { unpaid: checkoutId }, $unset: { [untilKey(checkoutId)]: 1 }, $push: { paid: checkoutId } },
      )
      .exec();
    return moved.modifiedCount === 1;
  }

  /** Gives the checkout's unit back (its hold ended unpaid, or its payment was refunded): once. */
  async release(id: string, checkoutId: string, extra: FilterQuery<UnitCounter> = {}): Promise<boolean> {
    const res = await this.model
      .updateOne(
        { _id: id, ...holding(checkoutId), ...extra },
        { $pull: { unpaid: checkoutId, paid: checkoutId }, $unset: { [untilKey(checkoutId)]: 1 }, $inc: { taken: -1 } },
      )
      .exec();
    return res.modifiedCount === 1;
  }

  /** The checkout's order is placed: its unit becomes a use, once (`taken` stays, `used` counts it). */
  async use(id: string, checkoutId: string): Promise<boolean> {
    const res = await this.model
      .updateOne(
        { _id: id, ...holding(checkoutId) },
        { $pull: { unpaid: checkoutId, paid: checkoutId }, $unset: { [untilKey(checkoutId)]: 1 }, $inc: { used: 1 } },
      )
      .exec();
    return res.modifiedCount === 1;
  }

  /** Gives back the units of the counter's unpaid holds that ended; resolves to the checkouts given back. */
  async releaseExpired(counter: CounterDoc, now: Date): Promise<string[]> {
    const released: string[] = [];
    for (const checkoutId of expiredHolders(counter, now)) {
      // Still unpaid: a payment that moved it to `paid` meanwhile keeps it.
      if (await this.release(String(counter._id), checkoutId, { unpaid: checkoutId })) released.push(checkoutId);
    }
    return released;
  }

  read(id: string): Promise<CounterDoc | null> {
    return this.model.findById(id).lean<CounterDoc>().exec();
  }

  /** Counters with unpaid holds (one batch), for the sweep. */
  withUnpaid(batch = 200): Promise<CounterDoc[]> {
    return this.model
      .find({ 'unpaid.0': { $exists: true } }, { unpaid: 1, unpaidUntil: 1 })
      .limit(batch)
      .lean<CounterDoc[]>()
      .exec();
  }
}
