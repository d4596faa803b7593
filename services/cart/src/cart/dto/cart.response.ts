import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { CartJson } from '@shop/contracts';
import { LineItemBody } from '@shop/nest-common';

/** A cart as every cart route answers (docs/api.md#cart): prices are the catalogue's current ones. */
export class CartBody implements CartJson {
  @ApiPropertyOptional({ description: 'Present for a stored user cart' }) _id?: string;
  @ApiPropertyOptional({ description: "The owner's user id (a user cart)" }) user?: string;
  @ApiPropertyOptional({ description: 'The guest id (a guest cart)' }) guestId?: string;
  @ApiProperty({ type: [LineItemBody] }) products!: LineItemBody[];
  @ApiProperty({ description: 'Sum of price × quantity (GBP), computed in pence', example: 79.98 }) totalPrice!: number;
  @ApiPropertyOptional({ format: 'date-time' }) createdAt?: string;
  @ApiPropertyOptional({ format: 'date-time' }) updatedAt?: string;
}
