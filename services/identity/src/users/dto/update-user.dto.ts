import { ApiPropertyOptional } from '@nestjs/swagger';
import type { Role } from '@shop/contracts';
import { IsAbsentOr } from '@shop/nest-common';
import { EmailField, NameField, RoleField } from './user-fields';

/**
 * An admin changes a user's name, email or role (never the password here). Each may be left out; none may be
 * null (written out rather than `PartialType`, whose `IsOptional` would let a null through as if absent).
 */
export class UpdateUserDto {
  @ApiPropertyOptional()
  @IsAbsentOr()
  @NameField()
  name?: string;

  @ApiPropertyOptional()
  @IsAbsentOr()
  @EmailField()
  email?: string;

  @ApiPropertyOptional()
  @IsAbsentOr()
  @RoleField()
  role?: Role;
}
