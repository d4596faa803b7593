import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiErrors,
  ApiObjectIdParam,
  Auth,
  CurrentUser,
  MessageBody,
  ParseObjectIdPipe,
  PublicUserBody,
  type AuthUser,
} from '@shop/nest-common';
import { CreateUserDto } from './dto/create-user.dto';
import { UpdateUserDto } from './dto/update-user.dto';
import { UserMessageBody } from './dto/user.responses';
import { UsersService } from './users.service';

const userId = new ParseObjectIdPipe('user');

@ApiTags('admin')
@Controller('api/admin/users')
@Auth('admin')
export class AdminUsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @ApiOperation({ summary: 'All users (never a password hash)' })
  @ApiOkResponse({ type: [PublicUserBody] })
  list() {
    return this.users.list();
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a user (role defaults to customer)' })
  @ApiCreatedResponse({ type: UserMessageBody })
  @ApiErrors({ 400: 'User already exists, or a field message' })
  async create(@Body() dto: CreateUserDto) {
    return { message: 'User created successfully', user: await this.users.create(dto) };
  }

  @Put(':id')
  @ApiOperation({ summary: "Change a user's name, email or role (a role change voids their tokens at once)" })
  @ApiObjectIdParam('user')
  @ApiOkResponse({ type: UserMessageBody })
  @ApiErrors(
    { 400: 'Invalid user id, a field message, or demoting yourself or the last admin' },
    { 404: 'User not found' },
  )
  async update(@CurrentUser() actor: AuthUser, @Param('id', userId) id: string, @Body() dto: UpdateUserDto) {
    return { message: 'User updated successfully', user: await this.users.update(actor.id, id, dto) };
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a user (not yourself, not the last admin); voids their tokens' })
  @ApiObjectIdParam('user')
  @ApiOkResponse({ type: MessageBody, description: '`{message: "User deleted successfully"}`' })
  @ApiErrors({ 400: 'Invalid user id, or deleting yourself or the last admin' }, { 404: 'User not found' })
  async remove(@CurrentUser() actor: AuthUser, @Param('id', userId) id: string) {
    await this.users.remove(actor.id, id);
    return { message: 'User deleted successfully' };
  }
}
