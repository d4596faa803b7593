import { ApiPropertyOptional } from '@nestjs/swagger';
import type { Role } from '@shop/contracts';
import { IsAbsentOr } from '@shop/nest-common';
import { RegisterDto } from './register.dto';
import { RoleField } from './user-fields';

/** An admin adds a user: what a shopper registers with, plus a role (customer unless given; null is no role). */
export class CreateUserDto extends RegisterDto {
  @ApiPropertyOptional({ description: 'customer unless given' })
  @IsAbsentOr()
  @RoleField()
  role?: Role;
}
