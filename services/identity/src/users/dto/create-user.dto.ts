import type { Role } from '@shop/contracts';
import { IsOptional } from 'class-validator';
import { EmailField, NameField, NewPasswordField, RoleField } from './user-fields';

export class CreateUserDto {
  @NameField()
  name!: string;

  @EmailField()
  email!: string;

  @NewPasswordField()
  password!: string;

  @IsOptional()
  @RoleField()
  role?: Role;
}
