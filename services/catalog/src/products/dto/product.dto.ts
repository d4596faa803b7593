import type { Category, Gender } from '@shop/contracts';
import { PartialType } from '@nestjs/mapped-types';
import { IsOptional } from 'class-validator';
import { Fields, ProductImageDto } from './product-fields';

/**
 * POST /api/admin/products. Required: name, description, category, price (> 0, two decimals).
 * A missing sku is generated. Fields a client may not set (rating, numReviews, _id) are dropped.
 */
export class CreateProductDto {
  @Fields.name()
  name!: string;

  @Fields.description()
  description!: string;

  @Fields.price()
  price!: number;

  @IsOptional()
  @Fields.price('Original price')
  originalPrice?: number | null;

  @IsOptional()
  @Fields.countInStock()
  countInStock?: number;

  @IsOptional()
  @Fields.sku()
  sku?: string;

  @Fields.category()
  category!: Category;

  @IsOptional()
  @Fields.text('Brand')
  brand?: string;

  @IsOptional()
  @Fields.sizes()
  sizes?: string[];

  @IsOptional()
  @Fields.colors()
  colors?: string[];

  @IsOptional()
  @Fields.text('Collection')
  collections?: string;

  @IsOptional()
  @Fields.text('Material')
  material?: string;

  @IsOptional()
  @Fields.gender()
  gender?: Gender;

  @IsOptional()
  @Fields.images()
  images?: ProductImageDto[];

  @IsOptional()
  @Fields.flag('isFeatured')
  isFeatured?: boolean;

  @IsOptional()
  @Fields.flag('isPublished')
  isPublished?: boolean;

  @IsOptional()
  @Fields.tags()
  tags?: string[];
}

/**
 * PUT /api/products/:id and /api/admin/products/:id: any subset of the create fields. A field that
 * is present is validated (so "" for a description is refused and 0 for stock is kept); null leaves
 * a field as it is, except originalPrice, where null removes it.
 */
export class UpdateProductDto extends PartialType(CreateProductDto) {}
