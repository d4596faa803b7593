import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AdminUsersController } from './admin-users.controller';
import { LoginThrottle } from './login-throttle';
import { UserDirectory } from './user-directory';
import { User, UserSchema } from './user.schema';
import { UsersController } from './users.controller';
import { UsersMessages } from './users.messages';
import { UsersService } from './users.service';

@Module({
  imports: [MongooseModule.forFeature([{ name: User.name, schema: UserSchema }])],
  controllers: [UsersController, AdminUsersController, UsersMessages],
  providers: [UsersService, LoginThrottle, UserDirectory],
  exports: [UsersService, LoginThrottle, MongooseModule],
})
export class UsersModule {}
