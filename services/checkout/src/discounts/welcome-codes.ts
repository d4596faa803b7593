import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { EVENTS, WELCOME_DISCOUNT, type WelcomeCodeIssuedEvent } from '@shop/contracts';
import {
  EventBus,
  isDuplicateKeyError,
  OutboxRelay,
  outboxAsRead,
  outboxEntry,
  ROOT_LOGGER,
  type EventBusLogger,
} from '@shop/nest-common';
import { randomInt } from 'node:crypto';
import { Types, type Model } from 'mongoose';
import { CheckoutLocks } from '../checkouts/checkout-locks';
import { Checkout } from '../checkouts/checkout.schema';
import { DiscountCode, WelcomeCode, type LeanDiscountCode, type LeanWelcomeCode } from './discount.schema';

/** Letters and digits a reader cannot mistake for one another (no I, L, O, 0, 1). */
export const WELCOME_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const WELCOME_CODE = new RegExp(`^${WELCOME_DISCOUNT.prefix}[${WELCOME_ALPHABET}]{6}$`);

export function newWelcomeCode(): string {
  let code = WELCOME_DISCOUNT.prefix;
  for (let i = 0; i < 6; i++) code += WELCOME_ALPHABET[randomInt(WELCOME_ALPHABET.length)];
  return code;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * The newsletter's personal code (issue 24): on every `identity.subscriber.subscribed`, the address's code —
 * made the first time, `WELCOME-XXXXXX`, 10 % off, first order only, one use, for that email — is announced as
 * `checkout.welcome-code.issued` (the notifications service emails it). Once per address: `welcome_codes` is keyed
 * by the email. Each step is idempotent under the address's lock — the record, then its code, then the event in
 * the record's outbox (id `checkout.welcome-code.issued:<subscribed eventId>`) — so a crash anywhere is mended by
 * the redelivery, and a code is never announced before it exists.
 */
@Injectable()
export class WelcomeCodes implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(WelcomeCodes.name);
  private readonly relay: OutboxRelay;

  constructor(
    @InjectModel(WelcomeCode.name) private readonly welcome: Model<WelcomeCode>,
    @InjectModel(DiscountCode.name) private readonly codes: Model<DiscountCode>,
    @InjectModel(Checkout.name) private readonly checkouts: Model<Checkout>,
    private readonly locks: CheckoutLocks,
    bus: EventBus,
    @Inject(ROOT_LOGGER) logger: EventBusLogger,
  ) {
    this.relay = new OutboxRelay({ model: welcome, bus, logger });
  }

  onModuleInit(): void {
    this.relay.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.relay.stop();
  }

  /** Handles `identity.subscriber.subscribed` `{email}` whose event id is `subscribedEventId`. */
  async issue(subscribedEventId: string, rawEmail: unknown): Promise<void> {
    const email = typeof rawEmail === 'string' ? rawEmail.trim().toLowerCase() : '';
    if (!EMAIL.test(email) || email.length > 254) {
      this.logger.warn({ eventId: subscribedEventId }, 'subscribed event without a valid email: no welcome code');
      return;
    }
    await this.lock(email, async () => {
      for (;;) {
        const record = await this.record(email);
        const code = await this.ensureCode(record);
        const eventId = `${EVENTS.checkout.welcomeCodeIssued}:${subscribedEventId}`;
        if (record.outbox.some((e) => e.eventId === eventId)) return;
        const data: WelcomeCodeIssuedEvent = {
          email,
          code: code.code,
          percentOff: code.percent ?? WELCOME_DISCOUNT.percent,
          usable: await this.usable(code, email),
        };
        // Published entries are history: the record keeps only what is still to go, and the new one — written only
        // if the outbox is still as read (the relay marks entries published without this lock): else read it again.
        const outbox = [
          ...record.outbox.filter((e) => !e.publishedAt),
          outboxEntry(EVENTS.checkout.welcomeCodeIssued, data, eventId),
        ];
        const res = await this.welcome
          .updateOne({ _id: email, ...outboxAsRead(record.outbox) }, { $set: { outbox, outboxPending: true } })
          .exec();
        if (res.matchedCount === 1) {
          this.logger.log({ code: code.code, eventId }, 'welcome code issued');
          return;
        }
      }
    });
    this.relay
      .relay(email)
      .catch((err: Error) =>
        this.logger.warn({ err: err.message }, 'welcome code event not published yet: the sweep retries'),
      );
  }

  /** The address's record, made the first time with the code it will have. */
  private async record(email: string): Promise<LeanWelcomeCode> {
    const found = await this.welcome.findById(email).lean<LeanWelcomeCode>().exec();
    if (found) return found;
    try {
      const created = await this.welcome.create({
        _id: email,
        codeId: new Types.ObjectId().toHexString(),
        code: newWelcomeCode(),
        outbox: [],
        outboxPending: false,
      });
      return created.toObject<LeanWelcomeCode>();
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      return (await this.welcome.findById(email).lean<LeanWelcomeCode>().exec())!;
    }
  }

  /** The record's code, made if missing; a code string already taken (by an admin) is drawn again. */
  private async ensureCode(record: LeanWelcomeCode): Promise<LeanDiscountCode> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const existing = await this.codes.findById(record.codeId).lean<LeanDiscountCode>().exec();
      if (existing) return existing;
      try {
        const created = await this.codes.create({
          _id: new Types.ObjectId(record.codeId),
          code: record.code,
          type: 'percent',
          percent: WELCOME_DISCOUNT.percent,
          usageLimit: 1,
          perCustomerLimit: 1,
          firstOrderOnly: true,
          active: true,
          email: record._id,
        });
        return created.toObject<LeanDiscountCode>();
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        if (await this.codes.exists({ _id: record.codeId }).exec()) continue;
        record.code = newWelcomeCode();
        await this.welcome.updateOne({ _id: record._id }, { $set: { code: record.code } }).exec();
      }
    }
    throw new Error('could not draw a free welcome code');
  }

  /** Whether the code can still be used: active, unused, and its address has placed no order. */
  private async usable(code: LeanDiscountCode, email: string): Promise<boolean> {
    if (!code.active) return false;
    if ((code.used ?? 0) > 0) return false;
    return (await this.checkouts.exists({ 'user.email': email, isPaid: true }).exec()) === null;
  }

  private lock<R>(email: string, fn: () => Promise<R>): Promise<R> {
    return this.locks.runKey(`welcome:${email}`, fn);
  }
}
