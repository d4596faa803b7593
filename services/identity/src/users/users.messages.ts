import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { PATTERNS, type PublicUser } from '@shop/contracts';
import { UsersService } from './users.service';

/** Requests other services send over RabbitMQ. */
@Controller()
export class UsersMessages {
  constructor(private readonly users: UsersService) {}

  @MessagePattern(PATTERNS.identity.findUser)
  findUser(@Payload() payload: { userId?: unknown }): Promise<PublicUser | null> {
    return typeof payload?.userId === 'string' ? this.users.findPublic(payload.userId) : Promise.resolve(null);
  }
}
