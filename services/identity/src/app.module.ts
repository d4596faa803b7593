import { Module } from '@nestjs/common';
import { ServiceDefaultsModule } from '@shop/nest-common';
import { IdentityConfig } from './config/identity.config';
import { PasswordResetModule } from './password-reset/password-reset.module';
import { SubscribersModule } from './subscribers/subscribers.module';
import { UsersModule } from './users/users.module';

@Module({
  imports: [
    ServiceDefaultsModule.forRoot({ service: 'identity', config: IdentityConfig }),
    UsersModule,
    PasswordResetModule,
    SubscribersModule,
  ],
})
export class AppModule {}
