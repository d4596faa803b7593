import type { Role } from '@shop/contracts';
import { IsOptional } from 'class-validator';
import { EmailField, NameField, RoleField } from './user-fields';

export class UpdateUserDto {
  @IsOptional()
  @NameField()
  name?: string;

  @IsOptional()
  @EmailField()
  email?: string;

  @IsOptional()
  @RoleField()
  role?: Role;
}
