import { BadRequestException, Body, Controller, Get, Param, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { RETURN_STATUSES, type AdminReturnJson, type OrderJson, type ReturnStatus } from '@shop/contracts';
import {
  AdminReturnBody,
  ApiErrors,
  ApiObjectIdParam,
  Auth,
  CurrentUser,
  OrderBody,
  ParseObjectIdPipe,
  type AuthUser,
} from '@shop/nest-common';
import { orderId } from '../orders/orders.controller';
import { UpdateReturnDto } from './dto/update-return.dto';
import { ReturnsService } from './returns.service';

const returnId = new ParseObjectIdPipe('return');

/** The admins' returns: the queue, and each return's steps. */
@ApiTags('admin')
@Controller('api/admin')
@Auth('admin')
export class AdminReturnsController {
  constructor(private readonly returns: ReturnsService) {}

  @Get('returns')
  @ApiOperation({ summary: 'The returns queue: every return (or those of one status), newest first' })
  @ApiQuery({ name: 'status', required: false, enum: RETURN_STATUSES })
  @ApiOkResponse({ type: [AdminReturnBody] })
  @ApiErrors({ 400: 'Invalid status' })
  queue(@Query('status') status?: unknown): Promise<AdminReturnJson[]> {
    if (status !== undefined && (typeof status !== 'string' || !RETURN_STATUSES.includes(status as ReturnStatus)))
      throw new BadRequestException(`Invalid status: one of ${RETURN_STATUSES.join(', ')}`);
    return this.returns.queue(status as ReturnStatus | undefined);
  }

  @Put('orders/:id/returns/:returnId')
  @ApiOperation({
    summary: 'Approve or reject a requested return (with a note to the customer), or mark an approved one Received',
    description:
      'Received takes `restock`: the order lines whose units go back on sale (catalog adds them to the variant’s ' +
      'stock once per return). The shop then refunds the return’s amount to the buyer’s PayPal, once, and marks it ' +
      'Refunded. A refund not made (PayPal refusing or away) leaves it Received with `refundError`, and is tried ' +
      'again until it is made; Received again asks again at once (never a second refund).',
  })
  @ApiObjectIdParam('order')
  @ApiParam({ name: 'returnId', description: 'The return (MongoDB ObjectId)' })
  @ApiOkResponse({ type: OrderBody, description: 'The order with its returns' })
  @ApiErrors(
    {
      400: 'Invalid order id, Invalid return id, Invalid status, A <status> return cannot be marked <status>, a bad note or restock',
    },
    { 404: 'Order not found, Return not found' },
    { 409: 'The order is changing: please try again' },
  )
  change(
    @Param('id', orderId) id: string,
    @Param('returnId', returnId) ret: string,
    @Body() dto: UpdateReturnDto,
    @CurrentUser() admin: AuthUser,
  ): Promise<OrderJson> {
    return this.returns.change(id, ret, dto, { _id: admin.id, name: admin.name });
  }
}
