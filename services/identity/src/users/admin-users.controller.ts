import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { Auth, CurrentUser, ParseObjectIdPipe, type AuthUser } from '@shop/nest-common';
import { CreateUserDto } from './dto/create-user.dto';
import { UpdateUserDto } from './dto/update-user.dto';
import { UsersService } from './users.service';

const userId = new ParseObjectIdPipe('user');

@Controller('api/admin/users')
@Auth('admin')
export class AdminUsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  list() {
    return this.users.list();
  }

  @Post()
  @HttpCode(201)
  async create(@Body() dto: CreateUserDto) {
    return { message: 'User created successfully', user: await this.users.create(dto) };
  }

  @Put(':id')
  async update(@CurrentUser() actor: AuthUser, @Param('id', userId) id: string, @Body() dto: UpdateUserDto) {
    return { message: 'User updated successfully', user: await this.users.update(actor.id, id, dto) };
  }

  @Delete(':id')
  async remove(@CurrentUser() actor: AuthUser, @Param('id', userId) id: string) {
    await this.users.remove(actor.id, id);
    return { message: 'User deleted successfully' };
  }
}
