import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ShopConfigJson } from '@shop/contracts';

export class PayPalConfigBody {
  @ApiProperty({ description: 'The PayPal REST app client id the SPA loads the SDK with' }) clientId!: string;
  @ApiProperty({ enum: ['paypal', 'fake'] }) mode!: 'paypal' | 'fake';
  @ApiPropertyOptional({
    description: "Fake mode only: the fake PayPal's base URL as a browser on this host reaches it",
  })
  apiBase?: string;
}

/** GET /api/config: what the SPA reads at run time, so one build serves every environment. */
export class ShopConfigBody implements ShopConfigJson {
  @ApiProperty({ enum: ['GBP'] }) currency!: 'GBP';
  @ApiProperty({ type: PayPalConfigBody }) paypal!: PayPalConfigBody;
}
