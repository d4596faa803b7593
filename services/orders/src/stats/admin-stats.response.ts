import { ApiProperty } from '@nestjs/swagger';
import type { AdminStatsJson, RevenueDayJson } from '@shop/contracts';
import { OrderBody } from '@shop/nest-common';

export class RevenueDayBody implements RevenueDayJson {
  @ApiProperty({ description: 'YYYY-MM-DD (UTC)', example: '2025-01-31' }) date!: string;
  @ApiProperty({ description: "The day's paid, not cancelled order totals (GBP)" }) revenue!: number;
  @ApiProperty({ type: 'integer' }) orders!: number;
}

/** GET /api/admin/stats: the dashboard's figures (docs/product.md#business-constants). */
export class AdminStatsBody implements AdminStatsJson {
  @ApiProperty({ description: 'Sum of the totals of paid orders that are not Cancelled (GBP)' }) revenue!: number;
  @ApiProperty({ type: 'integer' }) orders!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'null when the catalog did not answer' })
  products!: number | null;
  @ApiProperty({ type: [OrderBody] }) recentOrders!: OrderBody[];
  @ApiProperty({ type: [RevenueDayBody], description: 'The last 30 days, oldest first, every day present' })
  revenueByDay!: RevenueDayBody[];
}
