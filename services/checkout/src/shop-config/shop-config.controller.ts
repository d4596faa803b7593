import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CURRENCY, type ShopConfigJson } from '@shop/contracts';
import { CheckoutConfig } from '../config/checkout.config';
import { ShopConfigBody } from './shop-config.response';

/** GET /api/config: what the SPA needs to know at run time, so one build serves every environment. */
@ApiTags('checkout')
@Controller('api/config')
export class ShopConfigController {
  private readonly body: ShopConfigJson;

  constructor(config: CheckoutConfig) {
    const fake = config.PAYPAL_MODE === 'fake';
    this.body = {
      currency: CURRENCY,
      paypal: {
        clientId: config.PAYPAL_CLIENT_ID,
        mode: fake ? 'fake' : 'paypal',
        ...(fake ? { apiBase: config.PAYPAL_PUBLIC_API_BASE ?? config.PAYPAL_API_BASE } : {}),
      },
    };
  }

  @Get()
  @Header('Cache-Control', 'public, max-age=60')
  @ApiOperation({ summary: 'Runtime configuration for the SPA: currency and how to pay (PayPal or the fake)' })
  @ApiOkResponse({ type: ShopConfigBody })
  read(): ShopConfigJson {
    return this.body;
  }
}
