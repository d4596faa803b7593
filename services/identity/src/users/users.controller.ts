import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { Auth, CurrentUser, type AuthUser } from '@shop/nest-common';
import { LoginDto } from './dto/login.dto';
import { RegisterDto } from './dto/register.dto';
import { UsersService } from './users.service';

@Controller('api/users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Post('register')
  @HttpCode(201)
  register(@Body() dto: RegisterDto) {
    return this.users.register(dto);
  }

  @Post('login')
  @HttpCode(200)
  login(@Body() dto: LoginDto) {
    return this.users.login(dto);
  }

  @Get('profile')
  @Auth()
  profile(@CurrentUser() user: AuthUser) {
    return this.users.profile(user.id);
  }
}
