import { BadRequestException, Body, Controller, HttpCode, Post } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { EVENTS, type SubscriberSubscribedEvent } from '@shop/contracts';
import { ApiErrors, isDuplicateKeyError, MessageBody, outboxAsRead, outboxEntry } from '@shop/nest-common';
import { Types, type Model } from 'mongoose';
import { IdentityOutbox } from '../outbox/identity-outbox';
import { SubscribeDto } from './subscribe.dto';
import { Subscriber } from './subscriber.schema';

@ApiTags('newsletter')
@Controller('api/subscribe')
export class SubscribersController {
  constructor(
    @InjectModel(Subscriber.name) private readonly subscribers: Model<Subscriber>,
    private readonly outbox: IdentityOutbox,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Subscribe an email to the newsletter',
    description:
      'Publishes `identity.subscriber.subscribed` `{email}` (from the subscriber’s outbox, at least once) — again ' +
      'when the address subscribes again, which still answers 400 `Email is already subscribed` (checkout then ' +
      'sends the same welcome code again).',
  })
  @ApiCreatedResponse({ type: MessageBody })
  @ApiErrors({ 400: 'Invalid email, or Email is already subscribed' })
  async subscribe(@Body() dto: SubscribeDto) {
    // The event is stored with the subscriber, in the same insert: both or neither.
    const _id = new Types.ObjectId();
    const subscribed: SubscriberSubscribedEvent = { email: dto.email };
    const event = outboxEntry(
      EVENTS.identity.subscriberSubscribed,
      subscribed,
      `${EVENTS.identity.subscriberSubscribed}:${String(_id)}`,
    );
    try {
      await this.subscribers.create({ _id, email: dto.email, outbox: [event], outboxPending: true });
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      await this.subscribedAgain(dto.email);
      throw new BadRequestException('Email is already subscribed');
    }
    this.outbox.relaySoon('subscribers', String(_id));
    return { message: 'Successfully subscribed to the newsletter' };
  }

  /**
   * The address is already subscribed: it is announced again (issue 24: subscribing again sends the same welcome
   * code again), with an event id of its own, in the subscriber's outbox. The entries already published are
   * dropped: the outbox keeps only what is still to go. No lock: the outbox is written only if it is still as read
   * (a sign-up again at the same moment, or the relay marking an entry published, makes it read again and retry).
   */
  private async subscribedAgain(email: string): Promise<void> {
    const found = await this.subscribers.findOne({ email: email.trim().toLowerCase() }, { _id: 1 }).lean().exec();
    if (!found) return;
    const id = String(found._id);
    const event = outboxEntry<SubscriberSubscribedEvent>(
      EVENTS.identity.subscriberSubscribed,
      { email: email.trim().toLowerCase() },
      `${EVENTS.identity.subscriberSubscribed}:${id}:${new Types.ObjectId().toHexString()}`,
    );
    for (;;) {
      const subscriber = await this.subscribers.findById(id, { outbox: 1 }).lean<Pick<Subscriber, 'outbox'>>().exec();
      if (!subscriber) return;
      const seen = subscriber.outbox ?? [];
      const outbox = [...seen.filter((e) => !e.publishedAt), event];
      const res = await this.subscribers
        .updateOne({ _id: id, ...outboxAsRead(seen) }, { $set: { outbox, outboxPending: true } })
        .exec();
      if (res.matchedCount === 1) break;
    }
    this.outbox.relaySoon('subscribers', id);
  }
}
