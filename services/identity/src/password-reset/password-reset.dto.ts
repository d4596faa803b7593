import { ApiProperty } from '@nestjs/swagger';
import { PASSWORD_RESET_MESSAGES, type ForgotPasswordRequest, type ResetPasswordRequest } from '@shop/contracts';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { EmailField, NewPasswordField } from '../users/dto/user-fields';

export class ForgotPasswordDto implements ForgotPasswordRequest {
  @EmailField()
  email!: string;
}

export class ResetPasswordDto implements ResetPasswordRequest {
  @ApiProperty({ description: 'The token of the emailed link (`/reset-password?token=…`)', maxLength: 256 })
  @IsNotEmpty({ message: 'Reset token is required' })
  @IsString({ message: 'Reset token must be text' })
  @MaxLength(256, { message: PASSWORD_RESET_MESSAGES.invalidToken })
  token!: string;

  @NewPasswordField()
  password!: string;
}
