import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { rpcClientProvider } from '@shop/nest-common';
import { MailTemplates } from '../mail/mail-templates';
import { Mailer } from '../mail/mailer';
import { IDENTITY, NotificationsEvents } from './notifications.events';
import { NotificationsService } from './notifications.service';
import { SentMessage, SentMessageSchema } from './sent-message.schema';

@Module({
  imports: [MongooseModule.forFeature([{ name: SentMessage.name, schema: SentMessageSchema }])],
  providers: [
    // compiled once, at start: a template that does not compile stops the service from starting
    { provide: MailTemplates, useFactory: () => MailTemplates.load() },
    Mailer,
    NotificationsService,
    NotificationsEvents,
    // the buyer's email of an order event that came without it
    rpcClientProvider('identity', IDENTITY),
  ],
})
export class NotificationsModule {}
