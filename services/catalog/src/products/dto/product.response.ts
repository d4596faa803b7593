import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  CATEGORIES,
  COLORS,
  GENDERS,
  SIZES,
  type Category,
  type Gender,
  type LowStockJson,
  type LowStockVariantJson,
  type ProductJson,
  type ProductSuggestionJson,
  type ProductSuggestionsJson,
  type UploadResponse,
  type VariantJson,
} from '@shop/contracts';

export class ProductImageBody {
  @ApiProperty({ example: '/uploads/seed/chiefs-home-jersey.svg' }) url!: string;
  @ApiProperty() altText!: string;
}

/** One size × colour of a product, with its own SKU and stock. */
export class VariantBody implements VariantJson {
  @ApiProperty({ example: 'RAV-HOME-M-PURPLE', description: 'Unique across the catalogue' }) sku!: string;
  @ApiProperty({ type: String, enum: SIZES, nullable: true, description: 'null: the product offers no sizes' })
  size!: string | null;
  @ApiProperty({ type: String, enum: COLORS, nullable: true, description: 'null: the product offers no colours' })
  color!: string | null;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Units of this variant that can be bought now' })
  countInStock!: number;
}

/** A product as every /api response shows it (docs/api.md#products). */
export class ProductBody implements ProductJson {
  @ApiProperty({ example: '665f1c2ab7e4a1c3d2e0f9a1' }) _id!: string;
  @ApiProperty({ example: 'Chiefs Home Jersey' }) name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ description: 'GBP, at most two decimals', example: 89.99 }) price!: number;
  @ApiPropertyOptional({ description: 'Shown struck through when above price', example: 109.99 })
  originalPrice?: number;
  @ApiProperty({ type: 'integer', description: "The sum of the variants' stock (read-only)" }) countInStock!: number;
  @ApiProperty() sku!: string;
  @ApiProperty({ enum: CATEGORIES, enumName: 'Category' }) category!: Category;
  @ApiProperty() brand!: string;
  @ApiProperty({ type: [String] }) sizes!: string[];
  @ApiProperty({ type: [String] }) colors!: string[];
  @ApiProperty({
    type: [VariantBody],
    description:
      'One per size × colour offered, in the order of sizes, then colours (one when the product offers neither)',
  })
  variants!: VariantBody[];
  @ApiProperty() collections!: string;
  @ApiProperty() material!: string;
  @ApiProperty({ enum: GENDERS, enumName: 'Gender' }) gender!: Gender;
  @ApiProperty({ type: [ProductImageBody] }) images!: ProductImageBody[];
  @ApiProperty() rating!: number;
  @ApiProperty({ type: 'integer' }) numReviews!: number;
  @ApiProperty() isFeatured!: boolean;
  @ApiProperty() isPublished!: boolean;
  @ApiProperty({ type: [String] }) tags!: string[];
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class UploadResultBody implements UploadResponse {
  @ApiProperty({ description: 'A URL the browser loads through the gateway', example: '/uploads/3f2a9c.webp' })
  imageUrl!: string;
}

export class LowStockVariantBody implements LowStockVariantJson {
  @ApiProperty({ example: '665f1c2ab7e4a1c3d2e0f9a1' }) productId!: string;
  @ApiProperty({ example: 'Ravens Home Game Jersey' }) name!: string;
  @ApiProperty({ example: 'RAV-HOME-M-PURPLE' }) sku!: string;
  @ApiProperty({ type: String, nullable: true, example: 'M' }) size!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Purple' }) color!: string | null;
  @ApiProperty({ type: 'integer', example: 2 }) countInStock!: number;
}

/** GET /api/admin/products/low-stock */
export class LowStockBody implements LowStockJson {
  @ApiProperty({ type: 'integer', example: 5 }) threshold!: number;
  @ApiProperty({ type: [LowStockVariantBody], description: 'Lowest stock first' }) variants!: LowStockVariantBody[];
}

/** One suggestion of GET /api/products/suggest. */
export class ProductSuggestionBody implements ProductSuggestionJson {
  @ApiProperty({ example: "Green Bay Packers Men's Sideline Fleece Hoodie" }) name!: string;
  @ApiProperty({ description: "The product's team (its brand)", example: 'Green Bay Packers' }) team!: string;
  @ApiProperty({ description: 'GBP, at most two decimals', example: 64.99 }) price!: number;
  @ApiProperty({ type: String, nullable: true, description: "The first image's URL" }) thumbnail!: string | null;
  @ApiProperty({ description: 'The product page in the shop', example: '/product/665f1c2ab7e4a1c3d2e0f9a1' })
  url!: string;
}

/** GET /api/products/suggest's answer. */
export class ProductSuggestionsBody implements ProductSuggestionsJson {
  @ApiProperty({ type: [ProductSuggestionBody], description: 'Up to 8, best first' })
  suggestions!: ProductSuggestionBody[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Only when nothing matched and a close spelling would: the words to search for instead',
    example: 'packers hoodie',
  })
  didYouMean!: string | null;
}
