import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { MoveToCartJson, VariantJson, WishlistItemJson, WishlistJson } from '@shop/contracts';
import { CartBody } from '../../cart/dto/cart.response';

class WishlistVariantBody implements VariantJson {
  @ApiProperty() sku!: string;
  @ApiProperty({ type: String, nullable: true }) size!: string | null;
  @ApiProperty({ type: String, nullable: true }) color!: string | null;
  @ApiProperty({ type: 'integer', description: 'Units of this size and colour that can be bought now' })
  countInStock!: number;
}

class WishlistItemBody implements WishlistItemJson {
  @ApiProperty({ pattern: '^[0-9a-f]{24}$' }) productId!: string;
  @ApiProperty() name!: string;
  @ApiProperty() image!: string;
  @ApiProperty({ description: 'Current unit price (GBP)', example: 39.99 }) price!: number;
  @ApiProperty({ type: 'integer', description: 'Units of the whole product that can be bought now' })
  countInStock!: number;
  @ApiProperty({ type: [String] }) sizes!: string[];
  @ApiProperty({ type: [String] }) colors!: string[];
  @ApiProperty({ type: [WishlistVariantBody] }) variants!: WishlistVariantBody[];
  @ApiProperty({ format: 'date-time' }) addedAt!: string;
}

/** A wishlist as every wishlist route answers: the catalogue's current prices and stock, newest first. */
export class WishlistBody implements WishlistJson {
  @ApiPropertyOptional({ description: "The owner's user id (a user's list)" }) user?: string;
  @ApiPropertyOptional({ description: 'The guest id (a guest list)' }) guestId?: string;
  @ApiProperty({ type: [WishlistItemBody] }) items!: WishlistItemBody[];
  @ApiProperty({ type: 'integer' }) count!: number;
  @ApiProperty({ type: 'integer', description: 'The most products a wishlist holds', example: 100 }) limit!: number;
}

export class MoveToCartBody implements MoveToCartJson {
  @ApiProperty({ type: CartBody }) cart!: CartBody;
  @ApiProperty({ type: WishlistBody }) wishlist!: WishlistBody;
}
