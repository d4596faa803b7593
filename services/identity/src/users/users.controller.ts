import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, Auth, CurrentUser, PublicUserBody, type AuthUser } from '@shop/nest-common';
import { LoginDto } from './dto/login.dto';
import { RegisterDto } from './dto/register.dto';
import { AuthResultBody } from './dto/user.responses';
import { UsersService } from './users.service';

@ApiTags('users')
@Controller('api/users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Post('register')
  @HttpCode(201)
  @ApiOperation({ summary: 'Register a customer account (the role is always customer)' })
  @ApiCreatedResponse({ type: AuthResultBody })
  @ApiErrors({ 400: 'User already exists, or a field message (name 1–100 chars, valid email, password ≥ 8)' }, 429)
  register(@Body() dto: RegisterDto) {
    return this.users.register(dto);
  }

  @Post('login')
  @HttpCode(200)
  @ApiOperation({ summary: 'Log in; one 401 message for an unknown email and a wrong password' })
  @ApiOkResponse({ type: AuthResultBody })
  @ApiErrors(400, { 401: 'Invalid email or password' }, 429)
  login(@Body() dto: LoginDto) {
    return this.users.login(dto);
  }

  @Get('profile')
  @Auth()
  @ApiOperation({ summary: "The caller's profile" })
  @ApiOkResponse({ type: PublicUserBody })
  profile(@CurrentUser() user: AuthUser) {
    return this.users.profile(user.id);
  }
}
