import { BadRequestException, Body, Controller, HttpCode, Post } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isDuplicateKeyError } from '@shop/nest-common';
import type { Model } from 'mongoose';
import { SubscribeDto } from './subscribe.dto';
import { Subscriber } from './subscriber.schema';

@Controller('api/subscribe')
export class SubscribersController {
  constructor(@InjectModel(Subscriber.name) private readonly subscribers: Model<Subscriber>) {}

  @Post()
  @HttpCode(201)
  async subscribe(@Body() dto: SubscribeDto) {
    try {
      await this.subscribers.create({ email: dto.email });
    } catch (err) {
      if (isDuplicateKeyError(err)) throw new BadRequestException('Email is already subscribed');
      throw err;
    }
    return { message: 'Successfully subscribed to the newsletter' };
  }
}
