import { Module } from '@nestjs/common';
import { IdentityOutboxModule } from '../outbox/identity-outbox';
import { SubscribersController } from './subscribers.controller';

@Module({
  imports: [IdentityOutboxModule],
  controllers: [SubscribersController],
})
export class SubscribersModule {}
