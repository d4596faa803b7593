import type { Role } from '@shop/contracts';
import { IsOptional } from 'class-validator';
import { RegisterDto } from './register.dto';
import { RoleField } from './user-fields';

/** An admin adds a user: what a shopper registers with, plus a role (customer unless given). */
export class CreateUserDto extends RegisterDto {
  @IsOptional()
  @RoleField()
  role?: Role;
}
