import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  CATEGORIES,
  GENDERS,
  type Category,
  type Gender,
  type ProductJson,
  type UploadResponse,
} from '@shop/contracts';

export class ProductImageBody {
  @ApiProperty({ example: '/uploads/seed/chiefs-home-jersey.svg' }) url!: string;
  @ApiProperty() altText!: string;
}

/** A product as every /api response shows it (API.md "Products"). */
export class ProductBody implements ProductJson {
  @ApiProperty({ example: '665f1c2ab7e4a1c3d2e0f9a1' }) _id!: string;
  @ApiProperty({ example: 'Chiefs Home Jersey' }) name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ description: 'GBP, at most two decimals', example: 89.99 }) price!: number;
  @ApiPropertyOptional({ description: 'Shown struck through when above price', example: 109.99 })
  originalPrice?: number;
  @ApiProperty({ type: 'integer' }) countInStock!: number;
  @ApiProperty() sku!: string;
  @ApiProperty({ enum: CATEGORIES, enumName: 'Category' }) category!: Category;
  @ApiProperty() brand!: string;
  @ApiProperty({ type: [String] }) sizes!: string[];
  @ApiProperty({ type: [String] }) colors!: string[];
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
