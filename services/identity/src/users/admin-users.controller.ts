import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Req,
  Res,
} from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  ADMIN_LIST_LIMIT_DEFAULT,
  ADMIN_LIST_LIMIT_MAX,
  ADMIN_LIST_Q_MAX_LENGTH,
  isPagedRequest,
  parseAdminUserListQuery,
  ROLES,
  TOTAL_COUNT_HEADER,
  USER_LIST_SORTS,
  type PublicUser,
} from '@shop/contracts';
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
import type { FastifyReply, FastifyRequest } from 'fastify';
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

  /**
   * Without `page`: every user, newest first, as always. With it: one page of the users matching `q` and `role`,
   * in the order `sort` asks, and their number in all in the X-Total-Count header.
   */
  @Get()
  @ApiOperation({
    summary: 'All users (never a password hash); paged, searched, filtered and sorted when `page` is given',
  })
  @ApiQuery({
    name: 'page',
    required: false,
    schema: { type: 'integer', minimum: 1 },
    description: 'Pages the list (1-based); without it every user is answered and the other parameters are ignored',
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: ADMIN_LIST_LIMIT_MAX, default: ADMIN_LIST_LIMIT_DEFAULT },
  })
  @ApiQuery({
    name: 'q',
    required: false,
    schema: { type: 'string', maxLength: ADMIN_LIST_Q_MAX_LENGTH },
    description: 'Text in the name or the email, in any case',
  })
  @ApiQuery({ name: 'role', required: false, schema: { type: 'string', enum: [...ROLES] } })
  @ApiQuery({
    name: 'sort',
    required: false,
    schema: { type: 'string', enum: USER_LIST_SORTS.flatMap((f) => [f, `-${f}`]), default: '-createdAt' },
    description: 'A field, with a leading - for descending; equal values are ordered by id',
  })
  @ApiOkResponse({
    type: [PublicUserBody],
    headers: {
      [TOTAL_COUNT_HEADER]: {
        description: 'With `page`: how many users match in all',
        schema: { type: 'integer', minimum: 0 },
      },
    },
  })
  @ApiErrors({ 400: 'A bad page, limit, q, sort or role (the message says which)' })
  async list(@Req() req: FastifyRequest, @Res({ passthrough: true }) res: FastifyReply): Promise<PublicUser[]> {
    const raw = req.query as Record<string, unknown>;
    if (!isPagedRequest(raw)) return this.users.list();
    const query = parseAdminUserListQuery(raw);
    if (!query.ok) throw new BadRequestException(query.message);
    const page = await this.users.listPage(query.value);
    res.header(TOTAL_COUNT_HEADER, String(page.total));
    return page.users;
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
