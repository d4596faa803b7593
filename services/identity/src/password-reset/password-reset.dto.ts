import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { PASSWORD_RESET_MESSAGES, type ForgotPasswordRequest, type ResetPasswordRequest } from '@shop/contracts';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { EmailField, NewPasswordField } from '../users/dto/user-fields';

/** Checked in this order (the first problem is the message); a token too long to be one is simply not valid. */
const ResetTokenField = () =>
  applyDecorators(
    ApiProperty({ description: 'The token of the emailed link (`/reset-password?token=…`)', maxLength: 256 }),
    IsNotEmpty({ message: 'Reset token is required' }),
    IsString({ message: 'Reset token must be text' }),
    MaxLength(256, { message: PASSWORD_RESET_MESSAGES.invalidToken }),
  );

export class ForgotPasswordDto implements ForgotPasswordRequest {
  @EmailField()
  email!: string;
}

export class ResetPasswordDto implements ResetPasswordRequest {
  @ResetTokenField()
  token!: string;

  @NewPasswordField()
  password!: string;
}
