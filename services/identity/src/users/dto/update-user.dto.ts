import { OmitType, PartialType } from '@nestjs/mapped-types';
import { CreateUserDto } from './create-user.dto';

/** An admin changes a user's name, email or role (never the password here). */
export class UpdateUserDto extends PartialType(OmitType(CreateUserDto, ['password'] as const)) {}
