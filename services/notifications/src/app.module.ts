import { Module } from '@nestjs/common';
import { ServiceDefaultsModule } from '@shop/nest-common';
import { NotificationsConfig } from './config/notifications.config';
import { NotificationsModule } from './notifications/notifications.module';

@Module({
  imports: [
    ServiceDefaultsModule.forRoot({ service: 'notifications', config: NotificationsConfig }),
    NotificationsModule,
  ],
})
export class AppModule {}
