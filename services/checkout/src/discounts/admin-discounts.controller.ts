import { Body, Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DISCOUNT_MESSAGES, type DiscountCodeJson } from '@shop/contracts';
import { ApiErrors, ApiObjectIdParam, Auth, MessageBody, ParseObjectIdPipe } from '@shop/nest-common';
import { DiscountsService } from './discounts.service';
import { DiscountCodeDto } from './dto/discount-code.dto';
import { DiscountCodeResponse } from './dto/discount-code.response';

const DiscountId = () => Param('id', new ParseObjectIdPipe('discount code'));

/** The admin's discount codes (issue 24): list with uses and status, create, edit, deactivate. */
@ApiTags('admin')
@Controller('api/admin/discounts')
@Auth('admin')
export class AdminDiscountsController {
  constructor(private readonly discounts: DiscountsService) {}

  @Get()
  @ApiOperation({ summary: 'Every discount code, newest first, with its uses, holds and status' })
  @ApiOkResponse({ type: [DiscountCodeResponse] })
  list(): Promise<DiscountCodeJson[]> {
    return this.discounts.list();
  }

  @Post()
  @ApiOperation({
    summary: 'Create a discount code',
    description:
      'A percentage (whole, 1–100) or a fixed amount in pounds off the merchandise subtotal; optional minimum ' +
      'subtotal, start and end, usage limit, per-customer limit and first-order-only flag. The code is kept ' +
      'upper-case and matched case-insensitively.',
  })
  @ApiCreatedResponse({ type: DiscountCodeResponse })
  @ApiErrors({ 400: `A field message, or ${DISCOUNT_MESSAGES.duplicate}` })
  create(@Body() dto: DiscountCodeDto): Promise<DiscountCodeJson> {
    return this.discounts.create(dto);
  }

  @Put(':id')
  @ApiOperation({ summary: 'Replace a discount code’s terms (every field, as created)' })
  @ApiObjectIdParam('discount code')
  @ApiOkResponse({ type: DiscountCodeResponse })
  @ApiErrors({
    400: `Invalid discount code id, a field message, or ${DISCOUNT_MESSAGES.duplicate}`,
    404: DISCOUNT_MESSAGES.notFound,
  })
  update(@DiscountId() id: string, @Body() dto: DiscountCodeDto): Promise<DiscountCodeJson> {
    return this.discounts.update(id, dto);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Deactivate a discount code (never deleted: orders name it)' })
  @ApiObjectIdParam('discount code')
  @ApiOkResponse({ type: MessageBody, description: DISCOUNT_MESSAGES.deactivated })
  @ApiErrors({ 400: 'Invalid discount code id', 404: DISCOUNT_MESSAGES.notFound })
  deactivate(@DiscountId() id: string): Promise<{ message: string }> {
    return this.discounts.deactivate(id);
  }
}
