import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PASSWORD_RESET_MESSAGES } from '@shop/contracts';
import { ApiErrors, MessageBody } from '@shop/nest-common';
import type { FastifyRequest } from 'fastify';
import { AuthResultBody } from '../users/dto/user.responses';
import { ForgotPasswordDto, ResetPasswordDto } from './password-reset.dto';
import { PasswordResetService } from './password-reset.service';

@ApiTags('users')
@Controller('api/users')
export class PasswordResetController {
  constructor(private readonly resets: PasswordResetService) {}

  @Post('forgot-password')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Ask for a password reset link by email',
    description:
      'The same 202 whether or not an account has the email (no account enumeration). For an account, a link valid ' +
      '`PASSWORD_RESET_TTL_MINUTES` (30) is emailed: identity publishes `identity.password-reset.requested`. ' +
      'Per account, requests beyond `PASSWORD_RESET_MAX_PER_ACCOUNT` in the window still answer 202 and send nothing.',
  })
  @ApiAcceptedResponse({ type: MessageBody, description: `\`{message: "${PASSWORD_RESET_MESSAGES.requested}"}\`` })
  @ApiErrors(400, 413, { 429: 'Too many password reset requests from this address' })
  forgotPassword(@Body() dto: ForgotPasswordDto, @Req() req: FastifyRequest) {
    return this.resets.request(dto.email, req.ip);
  }

  @Post('reset-password')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Set a new password with an emailed token, and sign in (as login answers)',
    description:
      'The token works once, for `PASSWORD_RESET_TTL_MINUTES`. A reset revokes every earlier session of the ' +
      'account, voids its other reset tokens and clears its failed-login count.',
  })
  @ApiOkResponse({ type: AuthResultBody })
  @ApiErrors({ 400: `\`${PASSWORD_RESET_MESSAGES.invalidToken}\`, or a password message as at registration` }, 413, 503)
  resetPassword(@Body() dto: ResetPasswordDto) {
    return this.resets.reset(dto.token, dto.password);
  }
}
