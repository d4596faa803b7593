import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsNotEmpty, IsString, MaxLength, MinLength } from 'class-validator';
import { NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, ROLES } from '@shop/contracts';

const trim = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));
const trimLower = Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value));

/** The rules of docs/api.md#users, with the messages a shopper reads. */
export const NameField = () =>
  applyDecorators(
    ApiProperty({ minLength: 1, maxLength: NAME_MAX_LENGTH, example: 'Jordan Smith', description: 'Trimmed' }),
    trim,
    IsNotEmpty({ message: 'Name is required' }),
    IsString({ message: 'Name must be text' }),
    MaxLength(NAME_MAX_LENGTH, { message: `Name must be at most ${NAME_MAX_LENGTH} characters` }),
  );

export const EmailField = () =>
  applyDecorators(
    ApiProperty({
      format: 'email',
      maxLength: 254,
      example: 'jordan@example.com',
      description: 'Trimmed, lower-cased',
    }),
    trimLower,
    IsNotEmpty({ message: 'Email is required' }),
    IsString({ message: 'Email must be text' }),
    MaxLength(254, { message: 'Please enter a valid email address' }),
    IsEmail({}, { message: 'Please enter a valid email address' }),
  );

export const NewPasswordField = () =>
  applyDecorators(
    ApiProperty({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH, format: 'password' }),
    IsNotEmpty({ message: 'Password is required' }),
    IsString({ message: 'Password must be text' }),
    MinLength(PASSWORD_MIN_LENGTH, { message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters` }),
    MaxLength(PASSWORD_MAX_LENGTH, { message: `Password must be at most ${PASSWORD_MAX_LENGTH} characters` }),
  );

export const RoleField = () =>
  applyDecorators(
    ApiProperty({ enum: ROLES, enumName: 'Role' }),
    IsIn(ROLES, { message: `Role must be one of: ${ROLES.join(', ')}` }),
  );
