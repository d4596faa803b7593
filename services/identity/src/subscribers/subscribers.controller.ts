import { BadRequestException, Body, Controller, HttpCode, Post } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { EVENTS, type SubscriberSubscribedEvent } from '@shop/contracts';
import { ApiErrors, isDuplicateKeyError, MessageBody, outboxEntry } from '@shop/nest-common';
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
    description: 'Publishes `identity.subscriber.subscribed` `{email}` (from the subscriber’s outbox, at least once).',
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
      if (isDuplicateKeyError(err)) throw new BadRequestException('Email is already subscribed');
      throw err;
    }
    this.outbox.relaySoon('subscribers', String(_id));
    return { message: 'Successfully subscribed to the newsletter' };
  }
}
