import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, CurrentUser, OptionalAuth, type AuthUser } from '@shop/nest-common';
import { CreateStockAlertDto, StockAlertAnswer, UnsubscribeDto } from './dto/stock-alert.dto';
import { StockAlertsService } from './stock-alerts.service';

/** Back-in-stock emails: ask for one on a sold-out size and colour; stop them from an email's link. */
@ApiTags('stock-alerts')
@Controller('api/stock-alerts')
export class StockAlertsController {
  constructor(private readonly alerts: StockAlertsService) {}

  @Post()
  @HttpCode(202)
  @OptionalAuth()
  @ApiOperation({
    summary:
      "Email me when this sold-out size and colour is back: a guest gives an email, a customer's account address is used; the same answer whether or not the address had asked already",
  })
  @ApiAcceptedResponse({ type: StockAlertAnswer })
  @ApiErrors(
    { 400: 'Invalid product id, size/colour not offered, or a missing or invalid email' },
    { 404: 'Product not found', 409: 'This size and colour is in stock', 429: 'Too many requests for this address' },
  )
  request(@Body() dto: CreateStockAlertDto, @CurrentUser() user?: AuthUser): Promise<StockAlertAnswer> {
    return this.alerts.request(dto, user);
  }

  @Post('unsubscribe')
  @HttpCode(200)
  @ApiOperation({ summary: "Stop every waiting back-in-stock request of the token's address (no sign-in)" })
  @ApiOkResponse({ type: StockAlertAnswer })
  @ApiErrors({ 400: 'This unsubscribe link is not valid' })
  unsubscribe(@Body() dto: UnsubscribeDto): Promise<StockAlertAnswer> {
    return this.alerts.unsubscribe(dto.token);
  }
}
