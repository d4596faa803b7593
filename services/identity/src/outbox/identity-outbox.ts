import { Inject, Injectable, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectModel, MongooseModule } from '@nestjs/mongoose';
import type { PasswordResetRequestedEvent } from '@shop/contracts';
import { EventBus, OutboxRelay, ROOT_LOGGER, ServiceConfig, type EventBusLogger } from '@shop/nest-common';
import type { Model } from 'mongoose';
import { PasswordReset, PasswordResetSchema } from '../password-reset/password-reset.schema';
import { TokenSeal } from '../password-reset/reset-token';
import { Subscriber, SubscriberSchema } from '../subscribers/subscriber.schema';

/** The reset event as it waits in the outbox: the token sealed (reset-token.ts). */
export type SealedPasswordResetRequested = Omit<PasswordResetRequestedEvent, 'token'> & { sealedToken: string };

type OutboxOf = 'resets' | 'subscribers';

/**
 * Identity's outbox relays: a password reset's event and a subscription's event are stored in the record itself,
 * in the same write (FerretDB has no transactions), and published from there until the broker confirms — at once
 * after the write (`relaySoon`) and by the periodic sweep for whatever that missed. At least once, with a stable
 * eventId that consumers dedupe.
 *
 * Marking entries published takes no lock: it is one conditional update of the outbox as the relay read it
 * (OutboxRelay), so a subscriber's newer entry, appended meanwhile by a sign-up again, is never overwritten — the
 * mark misses and is made again on the outbox as it now is; and a sign-up again rewrites the outbox only if it is
 * still as read (`outboxAsRead`), so it never undoes a mark either. A reset is never updated after its insert, only
 * deleted, and the mark cannot bring a deleted one back (no upsert).
 */
@Injectable()
export class IdentityOutbox implements OnModuleInit, OnApplicationShutdown {
  private readonly relays: Record<OutboxOf, OutboxRelay>;

  constructor(
    @InjectModel(PasswordReset.name) resets: Model<PasswordReset>,
    @InjectModel(Subscriber.name) subscribers: Model<Subscriber>,
    bus: EventBus,
    seal: TokenSeal,
    @Inject(ROOT_LOGGER) private readonly logger: EventBusLogger,
  ) {
    const common = { bus, logger };
    this.relays = {
      resets: new OutboxRelay({
        ...common,
        model: resets,
        payload: (entry): PasswordResetRequestedEvent => {
          const { sealedToken, ...rest } = entry.data as SealedPasswordResetRequested;
          return { ...rest, token: seal.open(sealedToken) };
        },
      }),
      subscribers: new OutboxRelay({ ...common, model: subscribers }),
    };
  }

  onModuleInit(): void {
    Object.values(this.relays).forEach((relay) => relay.start());
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(Object.values(this.relays).map((relay) => relay.stop()));
  }

  /** Publishes the record's pending events now, without making the caller wait for the broker. */
  relaySoon(which: OutboxOf, id: string): void {
    this.relays[which]
      .relay(id)
      .catch((err: Error) =>
        this.logger.warn({ id, err: err.message }, `${which}: event not published yet; the outbox sweep retries`),
      );
  }
}

@Module({
  imports: [
    MongooseModule.forFeature([
      { name: PasswordReset.name, schema: PasswordResetSchema },
      { name: Subscriber.name, schema: SubscriberSchema },
    ]),
  ],
  providers: [
    IdentityOutbox,
    {
      provide: TokenSeal,
      inject: [ServiceConfig],
      useFactory: (config: ServiceConfig) => new TokenSeal(config.JWT_SECRET),
    },
  ],
  exports: [IdentityOutbox, TokenSeal, MongooseModule],
})
export class IdentityOutboxModule {}
