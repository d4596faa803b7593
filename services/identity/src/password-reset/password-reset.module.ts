import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { IdentityOutboxModule } from '../outbox/identity-outbox';
import { UsersModule } from '../users/users.module';
import { PasswordResetController } from './password-reset.controller';
import { PasswordResetClaim, PasswordResetClaimSchema } from './password-reset.schema';
import { PasswordResetService } from './password-reset.service';
import { PasswordResetThrottle } from './password-reset.throttle';

@Module({
  imports: [
    UsersModule,
    IdentityOutboxModule,
    MongooseModule.forFeature([{ name: PasswordResetClaim.name, schema: PasswordResetClaimSchema }]),
  ],
  controllers: [PasswordResetController],
  providers: [PasswordResetService, PasswordResetThrottle],
})
export class PasswordResetModule {}
