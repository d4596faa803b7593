import { BadRequestException, Body, Controller, HttpCode, Post } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, isDuplicateKeyError, MessageBody } from '@shop/nest-common';
import type { Model } from 'mongoose';
import { SubscribeDto } from './subscribe.dto';
import { Subscriber } from './subscriber.schema';

@ApiTags('newsletter')
@Controller('api/subscribe')
export class SubscribersController {
  constructor(@InjectModel(Subscriber.name) private readonly subscribers: Model<Subscriber>) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Subscribe an email to the newsletter' })
  @ApiCreatedResponse({ type: MessageBody })
  @ApiErrors({ 400: 'Invalid email, or Email is already subscribed' })
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
