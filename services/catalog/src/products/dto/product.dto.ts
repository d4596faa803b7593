import type { Category, Gender } from '@shop/contracts';
import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { Fields, ProductImageDto, VariantInputDto } from './product-fields';

/** Optional for validation and in the OpenAPI document alike. */
const Optional = () => applyDecorators(IsOptional(), ApiPropertyOptional());

/**
 * POST /api/admin/products. Required: name, description, category, price (> 0, two decimals).
 * A missing sku is generated. Fields a client may not set (rating, numReviews, _id) are dropped. Stock is set per
 * variant (`variants`); a bare `countInStock` only for a product with one variant.
 */
export class CreateProductDto {
  @Fields.name()
  name!: string;

  @Fields.description()
  description!: string;

  @Fields.price()
  price!: number;

  @Optional()
  @Fields.price('Original price')
  originalPrice?: number | null;

  @Optional()
  @Fields.countInStock()
  countInStock?: number;

  @Optional()
  @Fields.sku()
  sku?: string;

  @Fields.category()
  category!: Category;

  @Optional()
  @Fields.text('Brand')
  brand?: string;

  @Optional()
  @Fields.sizes()
  sizes?: string[];

  @Optional()
  @Fields.colors()
  colors?: string[];

  @Optional()
  @Fields.variants()
  variants?: VariantInputDto[];

  @Optional()
  @Fields.text('Collection')
  collections?: string;

  @Optional()
  @Fields.text('Material')
  material?: string;

  @Optional()
  @Fields.gender()
  gender?: Gender;

  @Optional()
  @Fields.images()
  images?: ProductImageDto[];

  @Optional()
  @Fields.flag('isFeatured')
  isFeatured?: boolean;

  @Optional()
  @Fields.flag('isPublished')
  isPublished?: boolean;

  @Optional()
  @Fields.tags()
  tags?: string[];
}

/**
 * PUT /api/products/:id and /api/admin/products/:id: any subset of the create fields (@nestjs/swagger's
 * PartialType: mapped-types' validation rules plus the document's properties, all optional). A field that
 * is present is validated (so "" for a description is refused and 0 for stock is kept); null leaves
 * a field as it is, except originalPrice, where null removes it.
 */
export class UpdateProductDto extends PartialType(CreateProductDto) {}
